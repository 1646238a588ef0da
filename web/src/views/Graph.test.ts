import type { FollowResult } from "@engram/client";
import { describe, expect, it } from "vitest";
import { linksToElements, linkTypesOf } from "./Graph";

function links(type: string, outgoing: boolean, ids: string[]): FollowResult {
  return {
    __typename: "Links",
    links: ids.map((id) => ({
      type,
      outgoing,
      properties: {},
      node: { __typename: "Proposition", id, text: `text of ${id}` },
    })),
  } as unknown as FollowResult;
}

describe("linksToElements (one expansion of the graph view)", () => {
  it("adds new neighbours under the cap, counts the rest, and links only drawn nodes", () => {
    const drawn = new Set(["start", "p1"]);
    const { added, dropped } = linksToElements(
      "start",
      [links("MENTIONS", false, ["p1", "p2", "p3", "p4"]), { __typename: "NotFound", message: "no" }],
      (id) => drawn.has(id),
      2,
    );
    const nodes = added.filter((e) => e.group === "nodes").map((e) => e.data.id);
    const edges = added.filter((e) => e.group === "edges").map((e) => e.data.id);
    expect(nodes).toEqual(["p2", "p3"]); // p1 was drawn already; p4 is past the cap
    expect(dropped).toBe(1);
    // incoming links point at the expanded node; none to p4, which is not drawn
    expect(edges).toEqual(["p1-MENTIONS-start", "p2-MENTIONS-start", "p3-MENTIONS-start"]);
  });

  it("keeps an edge it already drew out, and a node reached by two link types once", () => {
    const drawn = new Set(["start", "start-PROVEN_BY-e1"]);
    const { added } = linksToElements(
      "start",
      [links("PROVEN_BY", true, ["e1"]), links("RELATED_TO", true, ["e1"])],
      (id) => drawn.has(id),
      300,
    );
    expect(added.map((e) => e.data.id)).toEqual(["e1", "start-RELATED_TO-e1"]);
  });
});

describe("linkTypesOf", () => {
  it("asks a concept for its own links only, and a node of an unknown kind for every type", () => {
    expect(linkTypesOf("Concept")).toEqual(["MENTIONS", "ASSOCIATED", "SAME_AS", "IN"]);
    expect(linkTypesOf("Episode")).toContain("PART_OF");
    expect(linkTypesOf("Node")).toHaveLength(12);
    expect(linkTypesOf(undefined)).toHaveLength(12);
  });
});
