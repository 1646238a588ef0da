import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeClient, renderWith } from "../test/fakes";
import { MemoriesView } from "./Memories";

function item(n: number, overrides: Record<string, unknown> = {}) {
  return {
    id: `prop-${n}`,
    kind: "PROPOSITION",
    text: `Memory number ${n}`,
    status: "ACTIVE",
    at: "2026-01-02T03:04:05Z",
    validTo: null,
    origins: [],
    fact: null,
    ...overrides,
  };
}

function page(items: unknown[], totalCount: number, endCursor: string | null = null) {
  return {
    totalCount,
    pageInfo: { hasNextPage: endCursor !== null, endCursor },
    edges: items.map((node) => ({ node })),
  };
}

const FIRST = {
  user: "ana",
  kinds: ["PROPOSITION", "PRESCRIPTION"],
  session: null,
  agent: null,
  metadata: null,
  since: null,
  until: null,
  includeSuperseded: false,
  first: 100,
  after: null,
};

// jsdom lays nothing out: the virtualised list gets a 600 px tall scroller so it draws rows.
const sizes = ["clientHeight", "clientWidth", "offsetHeight", "offsetWidth"] as const;
beforeAll(() => {
  for (const size of sizes) Object.defineProperty(HTMLElement.prototype, size, { configurable: true, value: 600 });
});
afterAll(() => {
  for (const size of sizes) delete (HTMLElement.prototype as unknown as Record<string, unknown>)[size];
});

describe("MemoriesView", () => {
  it("lists a user's current facts newest first, a fact with its attribute and value", async () => {
    const client = fakeClient();
    const fact = {
      subject: "ana",
      attribute: "bike_location",
      value: "garden shed",
      valueType: null,
      aspect: null,
      polarity: true,
      ends: [],
    };
    client.memoriesPage.mockResolvedValue(page([item(1, { fact }), item(2, { status: "SUPERSEDED" })], 2));
    renderWith(client, <MemoriesView user="ana" />);

    expect(await screen.findByText("2 memories")).toBeInTheDocument();
    expect(client.memoriesPage).toHaveBeenCalledTimes(1);
    expect(client.memoriesPage).toHaveBeenCalledWith(FIRST);
    expect(screen.getByRole("link", { name: "Memory number 1" })).toHaveAttribute(
      "href",
      "#/memory?user=ana&id=prop-1",
    );
    expect(screen.getByText("bike_location · garden shed")).toBeInTheDocument();
    expect(screen.getByText("superseded")).toBeInTheDocument();
  });

  it("fetches the next page with the cursor when the list nears its end", async () => {
    const client = fakeClient();
    client.memoriesPage
      .mockResolvedValueOnce(page([item(1), item(2), item(3)], 5, "c3"))
      .mockResolvedValueOnce(page([item(4), item(5)], 5));
    renderWith(client, <MemoriesView user="ana" />);

    expect(await screen.findByRole("link", { name: "Memory number 5" })).toBeInTheDocument();
    expect(client.memoriesPage).toHaveBeenCalledTimes(2);
    expect(client.memoriesPage).toHaveBeenLastCalledWith({ ...FIRST, after: "c3" });
    expect(document.querySelector(".scroller")).toHaveAttribute("data-loaded", "5");
  });

  it("filters by session, agent, metadata, time and kind, from the first page again", async () => {
    const client = fakeClient();
    client.memoriesPage.mockResolvedValue(page([item(1)], 1));
    renderWith(client, <MemoriesView user="ana" />);
    await screen.findByText("1 memories");

    await userEvent.type(screen.getByLabelText("session"), "s-42");
    await userEvent.type(screen.getByLabelText("agent"), "planner");
    await userEvent.type(screen.getByLabelText("metadata"), '{{"channel": "web"}');
    await userEvent.type(screen.getByLabelText("since"), "2026-01-01");
    await userEvent.click(screen.getByRole("checkbox", { name: "prescription" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "superseded too" }));
    expect(client.memoriesPage).toHaveBeenCalledTimes(1); // nothing is asked until the filters are applied
    await userEvent.click(screen.getByRole("button", { name: "Filter" }));

    await waitFor(() => expect(client.memoriesPage).toHaveBeenCalledTimes(2));
    expect(client.memoriesPage).toHaveBeenLastCalledWith({
      ...FIRST,
      kinds: ["PROPOSITION"],
      session: "s-42",
      agent: "planner",
      metadata: { channel: "web" },
      since: "2026-01-01T00:00:00.000Z",
      includeSuperseded: true,
    });
  });

  it("refuses metadata that is not a JSON object, asking nothing of the server", async () => {
    const client = fakeClient();
    client.memoriesPage.mockResolvedValue(page([item(1)], 1));
    renderWith(client, <MemoriesView user="ana" />);
    await screen.findByText("1 memories");

    await userEvent.type(screen.getByLabelText("metadata"), "[[1, 2]");
    await userEvent.click(screen.getByRole("button", { name: "Filter" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Metadata must be a JSON object");
    expect(client.memoriesPage).toHaveBeenCalledTimes(1);
  });

  it("shows the timeline of episodes, and an empty state with a way to remember", async () => {
    const client = fakeClient();
    client.memoriesPage.mockResolvedValueOnce(page([item(1)], 1)).mockResolvedValueOnce(page([], 0));
    renderWith(client, <MemoriesView user="ana" />);
    await screen.findByText("1 memories");

    await userEvent.click(screen.getByRole("button", { name: "Timeline of episodes" }));
    await waitFor(() => expect(client.memoriesPage).toHaveBeenLastCalledWith({ ...FIRST, kinds: ["EPISODE"] }));
    expect(await screen.findByText(/Nothing here for these filters/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Remember" })).toHaveAttribute("href", "#/remember?user=ana");
  });

  it("hands a failed page to the shell", async () => {
    const client = fakeClient();
    const error = new Error("The API does not answer");
    client.memoriesPage.mockRejectedValue(error);
    const { fail } = renderWith(client, <MemoriesView user="ana" />);
    await waitFor(() => expect(fail).toHaveBeenCalledTimes(1));
    expect(fail.mock.calls[0]![0]).toBe(error);
    expect(screen.getByText("Loading…")).toBeInTheDocument();
  });
});
