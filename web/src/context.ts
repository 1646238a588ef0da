import type { Engram } from "@engram/client";
import { createContext, useCallback, useContext } from "react";

export interface Api {
  client: Engram;
  /** Reports a failure to the shell (banner, or back to sign-in when the key is refused). */
  fail: (error: unknown, retry?: () => void) => void;
}

export const ApiContext = createContext<Api | null>(null);

export function useApi(): Api {
  const api = useContext(ApiContext);
  if (!api) throw new Error("useApi outside the signed-in shell");
  return api;
}

/** Runs a call, handing any failure to the shell with a retry of the same call. */
export function useRun(): <T>(call: () => Promise<T>) => Promise<T | undefined> {
  const { fail } = useApi();
  return useCallback(
    async function run<T>(call: () => Promise<T>): Promise<T | undefined> {
      try {
        return await call();
      } catch (error) {
        fail(error, () => void run(call));
        return undefined;
      }
    },
    [fail],
  );
}
