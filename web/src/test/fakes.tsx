// A fake client for the component tests: each method the views call is a vi.fn the test arranges and inspects.
import type { Engram } from "@engram/client";
import { render, type RenderResult } from "@testing-library/react";
import type { ReactElement } from "react";
import { vi, type Mock } from "vitest";
import { type Api, ApiContext } from "../context";

type Methods = "memory" | "history" | "correct" | "forget" | "recall" | "associate" | "memoriesPage";
export type FakeClient = { [M in Methods]: Mock };

export function fakeClient(): FakeClient {
  const refuse = (name: string) => () => Promise.reject(new Error(`${name} was not arranged`));
  return {
    memory: vi.fn(refuse("memory")),
    history: vi.fn(refuse("history")),
    correct: vi.fn(refuse("correct")),
    forget: vi.fn(refuse("forget")),
    recall: vi.fn(refuse("recall")),
    associate: vi.fn(refuse("associate")),
    memoriesPage: vi.fn(refuse("memoriesPage")),
  };
}

/** Renders a view inside the signed-in shell's context, with the fake client and a spy for reported failures. */
export function renderWith(client: FakeClient, view: ReactElement): RenderResult & { fail: Mock } {
  const fail = vi.fn();
  const api: Api = { client: client as unknown as Engram, fail };
  return { ...render(<ApiContext.Provider value={api}>{view}</ApiContext.Provider>), fail };
}
