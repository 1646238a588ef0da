// The space key lives in sessionStorage only (gone when the tab closes), never in a URL, a cookie or a log.
import { Engram, HttpError, NetworkError, SocketError } from "@engram/client";

const KEY = "engram.inspector.key";

export function storedKey(): string | null {
  return sessionStorage.getItem(KEY);
}

export function storeKey(key: string): void {
  sessionStorage.setItem(KEY, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(KEY);
}

export function clientFor(key: string): Engram {
  return new Engram({ url: window.location.origin, apiKey: key });
}

/** How a failure reads to a person, and whether it ends the session (a wrong or revoked key). */
export interface Failure {
  message: string;
  endsSession: boolean;
  offline: boolean;
}

export function describe(error: unknown): Failure {
  if (error instanceof HttpError && (error.status === 401 || error.status === 403)) {
    return { message: `The key was refused (wrong or revoked): ${error.message}`, endsSession: true, offline: false };
  }
  if (error instanceof SocketError && (error.code === 4401 || error.code === 4403)) {
    return { message: `The key was refused (wrong or revoked): ${error.reason}`, endsSession: true, offline: false };
  }
  if (error instanceof NetworkError || (error instanceof HttpError && error.status >= 502)) {
    return { message: `The API does not answer: ${error.message}`, endsSession: false, offline: true };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { message, endsSession: false, offline: false };
}
