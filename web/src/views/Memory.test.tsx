import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeClient, renderWith } from "../test/fakes";
import { MemoryView } from "./Memory";

const FACT = {
  subject: "ana",
  attribute: "bike_location",
  value: "garden shed",
  valueType: null,
  aspect: null,
  polarity: true,
  ends: [],
};
const TURN = {
  id: "epi-1",
  externalId: "t1",
  speaker: "ana",
  text: "I keep my red bike in the garden shed.",
  occurredAt: "2026-01-02T03:04:05Z",
  source: { id: "src-1", externalId: "chat-1", kind: "conversation", title: "Chat" },
};

function proposition(overrides: Record<string, unknown> = {}) {
  return {
    __typename: "Proposition",
    id: "prop-1",
    text: "Ana keeps her red bike in the garden shed.",
    status: "ACTIVE",
    subject: "ana",
    validFrom: "2026-01-02T03:04:05Z",
    validTo: null,
    recordedAt: "2026-01-02T03:05:00Z",
    expiredAt: null,
    confidence: 0.9,
    supersededBy: null,
    fact: FACT,
    concepts: [{ key: "bike" }, { key: "garden shed" }],
    provenance: [TURN],
    ...overrides,
  };
}

const NO_HISTORY = {
  __typename: "History",
  propositionId: "prop-1",
  status: "ACTIVE",
  currentId: "prop-1",
  replaced: [],
};

describe("MemoryView", () => {
  it("shows a fact, its validity, the turn that proves it and its empty chain", async () => {
    const client = fakeClient();
    client.memory.mockResolvedValue(proposition());
    client.history.mockResolvedValue(NO_HISTORY);
    renderWith(client, <MemoryView user="ana" id="prop-1" />);

    expect(await screen.findByText("ana · bike_location · garden shed")).toBeInTheDocument();
    expect(client.memory).toHaveBeenCalledWith("prop-1", { user: "ana" });
    expect(client.history).toHaveBeenCalledWith("prop-1", { user: "ana" });
    expect(screen.getByText("2026-01-02 03:04:05Z", { selector: "dd" })).toBeInTheDocument(); // valid from
    const provenance = screen.getByRole("table");
    expect(within(provenance).getByText(TURN.text)).toBeInTheDocument();
    expect(within(provenance).getByText("conversation chat-1")).toBeInTheDocument();
    expect(screen.getByText("bike, garden shed")).toBeInTheDocument();
    expect(screen.getByText("It replaced nothing.")).toBeInTheDocument();
    expect(screen.queryByText("Ended by")).not.toBeInTheDocument();
  });

  it("names the fact that ended a superseded one and lists what a fact replaced", async () => {
    const client = fakeClient();
    const later = proposition({
      id: "prop-2",
      text: "Ana keeps her blue bike in the garage.",
      fact: { ...FACT, value: "garage" },
    });
    client.memory.mockImplementation((id: string) =>
      Promise.resolve(id === "prop-1" ? proposition({ status: "SUPERSEDED", supersededBy: "prop-2" }) : later),
    );
    client.history.mockResolvedValue({
      ...NO_HISTORY,
      currentId: "prop-2",
      replaced: [
        {
          propositionId: "prop-0",
          text: "Ana keeps her bike at work.",
          status: "SUPERSEDED",
          reason: "correction",
          replacedBy: "prop-1",
          validFrom: null,
          validTo: "2026-01-01T00:00:00Z",
          expiredAt: null,
          fact: null,
        },
      ],
    });
    renderWith(client, <MemoryView user="ana" id="prop-1" />);

    const endedBy = await screen.findByText("bike_location · garage");
    expect(endedBy.closest("a")).toHaveAttribute("href", "#/memory?user=ana&id=prop-2");
    expect(screen.getByRole("link", { name: "the fact that stands now" })).toHaveAttribute(
      "href",
      "#/memory?user=ana&id=prop-2",
    );
    const chain = screen.getByRole("list");
    expect(within(chain).getByText("Ana keeps her bike at work.")).toBeInTheDocument();
    expect(within(chain).getByText(/correction, superseded, until 2026-01-01 00:00:00Z/)).toBeInTheDocument();
    // a superseded fact is not corrected again
    expect(screen.queryByLabelText("What is true instead")).not.toBeInTheDocument();
  });

  it("corrects in place and opens the correction", async () => {
    const client = fakeClient();
    client.memory.mockResolvedValue(proposition());
    client.history.mockResolvedValue(NO_HISTORY);
    client.correct.mockResolvedValue({ __typename: "Corrected", propositionId: "prop-9" });
    renderWith(client, <MemoryView user="ana" id="prop-1" />);

    const button = await screen.findByRole("button", { name: "Correct" });
    expect(button).toBeDisabled(); // nothing typed yet
    await userEvent.type(screen.getByLabelText("What is true instead"), "I keep my blue bike in the garage.");
    await userEvent.type(screen.getByLabelText("Why (optional)"), "moved it");
    await userEvent.click(button);

    expect(client.correct).toHaveBeenCalledWith("prop-1", "I keep my blue bike in the garage.", {
      user: "ana",
      reason: "moved it",
    });
    await waitFor(() => expect(window.location.hash).toBe("#/memory?user=ana&id=prop-9"));
  });

  it("shows the server's refusal of a correction", async () => {
    const client = fakeClient();
    client.memory.mockResolvedValue(proposition());
    client.history.mockResolvedValue(NO_HISTORY);
    client.correct.mockResolvedValue({ __typename: "UserError", message: "the text is empty after trimming" });
    renderWith(client, <MemoryView user="ana" id="prop-1" />);

    await userEvent.type(await screen.findByLabelText("What is true instead"), "x");
    await userEvent.click(screen.getByRole("button", { name: "Correct" }));
    expect(await screen.findByText("the text is empty after trimming")).toBeInTheDocument();
  });

  it("forgets after a confirmation that names the fact, and not before", async () => {
    const client = fakeClient();
    client.memory.mockResolvedValue(proposition());
    client.history.mockResolvedValue(NO_HISTORY);
    client.forget.mockResolvedValue({ __typename: "Forgotten", episodesRemoved: 0, knowledgeRemoved: 1 });
    renderWith(client, <MemoryView user="ana" id="prop-1" />);

    await userEvent.click(await screen.findByRole("button", { name: "Forget this memory" }));
    const confirm = screen.getByRole("alertdialog");
    expect(confirm).toHaveTextContent('Forget this fact: "Ana keeps her red bike in the garden shed."?');
    expect(within(confirm).getByRole("button", { name: "Cancel" })).toHaveFocus(); // the safe choice
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Forget this memory" }));
    await userEvent.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Cancel" }));
    expect(client.forget).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole("button", { name: "Forget source chat-1" }));
    expect(screen.getByRole("alertdialog")).toHaveTextContent("Forget the whole conversation chat-1 (Chat)");
    await userEvent.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Forget" }));
    expect(client.forget).toHaveBeenCalledWith({ sourceIds: ["src-1"], user: "ana" });
    await waitFor(() => expect(window.location.hash).toBe("#/memories?user=ana"));
  });

  it("says so when the memory is gone, and hands a failure to the shell", async () => {
    const client = fakeClient();
    client.memory.mockResolvedValue(null);
    renderWith(client, <MemoryView user="ana" id="prop-gone" />);
    expect(await screen.findByText(/No memory prop-gone for this user/)).toBeInTheDocument();

    const failing = fakeClient();
    const error = new Error("boom");
    failing.memory.mockRejectedValue(error);
    const { fail } = renderWith(failing, <MemoryView user="ana" id="prop-1" />);
    await waitFor(() => expect(fail).toHaveBeenCalledTimes(1));
    expect(fail.mock.calls[0]![0]).toBe(error);
  });

  it("shows an episode's speaker, source and the knowledge it proves", async () => {
    const client = fakeClient();
    client.memory.mockResolvedValue({
      __typename: "Episode",
      id: "epi-1",
      externalId: "t1",
      speaker: "ana",
      text: TURN.text,
      occurredAt: TURN.occurredAt,
      source: TURN.source,
      knowledge: [
        {
          __typename: "Proposition",
          id: "prop-1",
          text: "Ana keeps her red bike in the garden shed.",
          status: "ACTIVE",
        },
      ],
    });
    renderWith(client, <MemoryView user="ana" id="epi-1" />);
    expect(await screen.findByRole("link", { name: "Ana keeps her red bike in the garden shed." })).toHaveAttribute(
      "href",
      "#/memory?user=ana&id=prop-1",
    );
    expect(screen.getByRole("button", { name: "Forget this turn" })).toBeInTheDocument();
    expect(client.history).not.toHaveBeenCalled();
  });
});
