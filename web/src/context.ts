import type { Engram } from "@engram/client";
import { createContext, useCallback, useContext } from "react";

/** What the shell offers after a failed call: try it again, or give it up. */
export interface Recovery {
  retry: () => void;
  dismiss: () => void;
}

export interface Api {
  client: Engram;
  /** Reports a failure to the shell (banner, or back to sign-in when the key is refused). */
  fail: (error: unknown, recovery?: Recovery) => void;
}

export const ApiContext = createContext<Api | null>(null);

export function useApi(): Api {
  const api = useContext(ApiContext);
  if (!api) throw new Error("useApi outside the signed-in shell");
  return api;
}

/** Runs a call, handing a failure to the shell. The answer waits for the person's choice: Retry runs the same call
 * again and answers with its result (so the view draws what the retry brought), Dismiss answers undefined. */
export function useRun(): <T>(call: () => Promise<T>) => Promise<T | undefined> {
  const { fail } = useApi();
  return useCallback(
    async function run<T>(call: () => Promise<T>): Promise<T | undefined> {
      try {
        return await call();
      } catch (error) {
        return new Promise<T | undefined>((resolve) => {
          fail(error, { retry: () => void run(call).then(resolve), dismiss: () => resolve(undefined) });
        });
      }
    },
    [fail],
  );
}
