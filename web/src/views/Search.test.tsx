import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Recovery } from "../context";
import { fakeClient, renderWith } from "../test/fakes";
import { SearchView } from "./Search";

function recalled(items: unknown[], reason: string | null = null) {
  return { __typename: "Recall", items, reason, trace: [{ step: "vector", ms: 12.345, detail: "k=50" }] };
}

const ITEM = {
  id: "prop-1",
  kind: "proposition",
  text: "Ana keeps her red bike in the garden shed.",
  score: 0.8123,
  relevance: 0.71,
  foundBy: ["vector", "concept"],
  supersededBy: null,
  provenance: [{ speaker: "ana", occurredAt: "2026-01-02T03:04:05Z", text: "I keep my red bike in the garden shed." }],
};

describe("SearchView", () => {
  it("recalls for the user with the server's bar, and lists each item with why it came and its proof", async () => {
    const client = fakeClient();
    client.recall.mockResolvedValue(recalled([ITEM]));
    renderWith(client, <SearchView user="ana" />);

    const submit = screen.getByRole("button", { name: "Search" });
    expect(submit).toBeDisabled();
    await userEvent.type(screen.getByLabelText("Question"), "Where is the bike?{Enter}");

    expect(client.recall).toHaveBeenCalledWith("Where is the bike?", { user: "ana", minRelevance: null });
    const result = await screen.findByRole("link", { name: ITEM.text });
    expect(result).toHaveAttribute("href", "#/memory?user=ana&id=prop-1");
    const row = result.closest("li")!;
    expect(row).toHaveTextContent("proposition · score 0.812 · relevance 0.71 · found by vector, concept");
    expect(row).toHaveTextContent("proven by ana at 2026-01-02 03:04:05Z");
    expect(screen.getByText("Trace (1 steps)")).toBeInTheDocument();
    expect(screen.getByText("12.3 ms")).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "Search ana" })).toHaveAttribute("data-searches", "1");
  });

  it("sends the minimum relevance typed, and says why nothing came back", async () => {
    const client = fakeClient();
    client.recall.mockResolvedValue(recalled([], "nothing relevant above 0.4"));
    renderWith(client, <SearchView user="" />);

    await userEvent.type(screen.getByLabelText(/Minimum relevance/), "0.4");
    await userEvent.type(screen.getByLabelText("Question"), "What is my dog called?");
    await userEvent.click(screen.getByRole("button", { name: "Search" }));

    expect(client.recall).toHaveBeenCalledWith("What is my dog called?", { user: null, minRelevance: 0.4 });
    expect(await screen.findByText("Nothing came back. nothing relevant above 0.4")).toBeInTheDocument();
  });

  it("shows the server's refusal as an alert", async () => {
    const client = fakeClient();
    client.recall.mockResolvedValue({ __typename: "UserError", message: "minRelevance must be between 0 and 1" });
    renderWith(client, <SearchView user="ana" />);
    await userEvent.type(screen.getByLabelText("Question"), "x{Enter}");
    expect(await screen.findByRole("alert")).toHaveTextContent("minRelevance must be between 0 and 1");
  });

  it("associates a remark and shows the paths that brought each memory", async () => {
    const client = fakeClient();
    client.associate.mockResolvedValue({
      __typename: "Associations",
      reason: null,
      trace: [],
      associations: [
        {
          item: { id: "prop-1", text: ITEM.text },
          why: [{ kind: "concept", detail: "shares a concept", concepts: ["bike"] }],
        },
      ],
    });
    renderWith(client, <SearchView user="ana" />);

    await userEvent.click(screen.getByRole("radio", { name: /associate/ }));
    expect(screen.queryByLabelText(/Minimum relevance/)).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("What the user just said"), "I am going cycling{Enter}");

    expect(client.associate).toHaveBeenCalledWith("I am going cycling", { user: "ana" });
    expect(client.recall).not.toHaveBeenCalled();
    const result = await screen.findByRole("link", { name: ITEM.text });
    expect(result).toHaveAttribute("href", "#/memory?user=ana&id=prop-1");
    const path = within(result.closest("li")!).getByRole("listitem");
    expect(path).toHaveTextContent("concept shares a concept (bike)");
  });

  it("hands a failed call to the shell, and draws what its Retry brings", async () => {
    const client = fakeClient();
    const error = new Error("The API does not answer");
    client.recall.mockRejectedValueOnce(error).mockResolvedValueOnce(recalled([ITEM]));
    const { fail } = renderWith(client, <SearchView user="ana" />);

    await userEvent.type(screen.getByLabelText("Question"), "Where is the bike?{Enter}");
    await waitFor(() => expect(fail).toHaveBeenCalledTimes(1));
    expect(fail.mock.calls[0]![0]).toBe(error);
    expect(screen.getByRole("button", { name: "Searching…" })).toBeDisabled(); // waiting for Retry or Dismiss
    const recovery = fail.mock.calls[0]![1] as Recovery;
    act(() => recovery.retry());
    expect(await screen.findByRole("link", { name: ITEM.text })).toBeInTheDocument();
    expect(client.recall).toHaveBeenCalledTimes(2);
    expect(screen.getByRole("button", { name: "Search" })).toBeEnabled();
  });

  it("is ready for the next search when the failure is dismissed", async () => {
    const client = fakeClient();
    client.recall.mockRejectedValueOnce(new Error("down"));
    const { fail } = renderWith(client, <SearchView user="ana" />);
    await userEvent.type(screen.getByLabelText("Question"), "Where is the bike?{Enter}");
    await waitFor(() => expect(fail).toHaveBeenCalled());
    act(() => (fail.mock.calls[0]![1] as Recovery).dismiss());
    expect(await screen.findByRole("button", { name: "Search" })).toBeEnabled();
    expect(screen.queryByRole("link")).not.toBeInTheDocument();
  });
});
