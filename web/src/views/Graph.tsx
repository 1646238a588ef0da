import type { FollowResult, LinkType } from "@engram/client";
import cytoscape, { type Core, type ElementDefinition, type NodeSingular } from "cytoscape";
import { useCallback, useEffect, useRef, useState } from "react";
import { useApi, useRun } from "../context";
import { hrefOf } from "../nav";

/** At most this many nodes drawn: an expansion past it adds what fits and says so. */
export const NODE_CAP = 300;
const LINK_TYPES: LinkType[] = [
  "PROVEN_BY",
  "SUPERSEDES",
  "MENTIONS",
  "ASSOCIATED",
  "SAME_AS",
  "RELATED_TO",
  "CAUSED_BY",
  "CONTRASTS_WITH",
  "NEXT",
  "IN",
  "PART_OF",
  "SOLVES",
];
const COLOURS: Record<string, string> = {
  Proposition: "#1f77b4",
  Episode: "#2ca02c",
  Concept: "#ff7f0e",
  Source: "#7f7f7f",
  Prescription: "#9467bd",
  Intent: "#8c564b",
};

type Link = Extract<FollowResult, { __typename: "Links" }>["links"][number];

function label(node: NonNullable<Link["node"]>): string {
  const text = "text" in node ? node.text : "key" in node ? node.key : "title" in node ? node.title : node.id;
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

const STYLE: cytoscape.StylesheetJson = [
  {
    selector: "node",
    style: {
      label: "data(label)",
      "font-size": 9,
      "text-wrap": "ellipsis",
      "text-max-width": "120px",
      "background-color": "data(colour)",
      width: 14,
      height: 14,
    },
  },
  { selector: "node.start", style: { width: 22, height: 22, "border-width": 3, "border-color": "#000" } },
  {
    selector: "edge",
    style: {
      label: "data(type)",
      "font-size": 7,
      width: 1,
      "curve-style": "bezier",
      "target-arrow-shape": "triangle",
      "line-color": "#999",
      "target-arrow-color": "#999",
    },
  },
  { selector: "edge[type = 'SUPERSEDES']", style: { "line-color": "#d62728", "target-arrow-color": "#d62728" } },
];

// Cytoscape writes an inline <style> (its container's `position: relative`) unless an element with this id exists;
// the page's CSP refuses inline styles, and styles.css has the rule, so a marker stands in for it.
function markCytoscapeStylesheet(): void {
  const id = "__________cytoscape_stylesheet";
  if (document.getElementById(id)) return;
  const marker = document.createElement("meta");
  marker.id = id;
  document.head.appendChild(marker);
}

/** The links each kind of node can have (the graph's model: cypher/ writes these and no others), so an expansion
 * asks only for those; a kind not listed is asked for every type. */
export const LINKS_OF: Record<string, LinkType[]> = {
  Concept: ["MENTIONS", "ASSOCIATED", "SAME_AS", "IN"],
  Proposition: ["PROVEN_BY", "SUPERSEDES", "MENTIONS", "RELATED_TO", "CAUSED_BY", "CONTRASTS_WITH", "NEXT", "SOLVES"],
  Prescription: ["PROVEN_BY", "SUPERSEDES", "MENTIONS", "SOLVES", "RELATED_TO", "CAUSED_BY", "CONTRASTS_WITH"],
  Episode: ["PROVEN_BY", "NEXT", "PART_OF"],
  Source: ["PART_OF"],
  Intent: ["SOLVES"],
};

export function linkTypesOf(kind: unknown): LinkType[] {
  return (typeof kind === "string" ? LINKS_OF[kind] : undefined) ?? LINK_TYPES;
}

/** Nodes expanded at once by "Expand to the cap" (a few requests each; the browser runs six at once). */
const EXPAND_AT_ONCE = 6;
/** Past this many nodes the layout is breadth first from the start (linear), not force-directed (quadratic). */
const FORCE_LAYOUT_MAX = 100;

/** What one expansion adds: the new nodes (at most `room`) and the links between drawn or added nodes. */
export function linksToElements(
  nodeId: string,
  answers: readonly FollowResult[],
  has: (id: string) => boolean,
  room: number,
): { added: ElementDefinition[]; dropped: number } {
  const nodes = new Map<string, ElementDefinition>();
  const edges = new Map<string, ElementDefinition>();
  let dropped = 0;
  for (const answer of answers) {
    if (answer.__typename !== "Links") continue;
    for (const link of answer.links) {
      const node = link.node;
      if (!node) continue;
      if (!has(node.id) && !nodes.has(node.id)) {
        if (nodes.size >= room) {
          dropped += 1;
          continue;
        }
        nodes.set(node.id, {
          group: "nodes",
          data: {
            id: node.id,
            label: label(node),
            type: node.__typename,
            colour: COLOURS[node.__typename] ?? "#444",
            text: "text" in node ? node.text : label(node),
          },
        });
      }
      const [source, target] = link.outgoing ? [nodeId, node.id] : [node.id, nodeId];
      const edgeId = `${source}-${link.type}-${target}`;
      if (!has(edgeId)) edges.set(edgeId, { group: "edges", data: { id: edgeId, source, target, type: link.type } });
    }
  }
  const drawn = (id: string) => has(id) || nodes.has(id);
  const links = [...edges.values()].filter((e) => drawn(String(e.data.source)) && drawn(String(e.data.target)));
  return { added: [...nodes.values(), ...links], dropped };
}

/** The neighbourhood of a memory or a concept: typed links, nodes expanding on click (or all at once, breadth first,
 * until NODE_CAP), at most NODE_CAP of them. */
export default function GraphView({ user, id }: { user: string; id: string }) {
  const { client } = useApi();
  const run = useRun();
  const box = useRef<HTMLDivElement>(null);
  const graph = useRef<Core | null>(null);
  const expanded = useRef(new Set<string>());
  const [count, setCount] = useState(0);
  const [note, setNote] = useState("");
  const [selected, setSelected] = useState<{ id: string; type: string; text: string } | null>(null);
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [expansions, setExpansions] = useState(0);
  const [requests, setRequests] = useState(0);
  const [layoutMs, setLayoutMs] = useState(0);

  /** Follows each node's link types and adds what fits under the cap; false when a call failed. */
  const grow = useCallback(
    async (nodeIds: readonly string[]): Promise<boolean> => {
      const types = nodeIds.map((nodeId) => linkTypesOf(graph.current?.getElementById(nodeId).data("type")));
      setRequests((n) => n + types.reduce((sum, each) => sum + each.length, 0));
      const answers = await run(() =>
        Promise.all(
          nodeIds.map((nodeId, i) =>
            Promise.all(types[i]!.map((type) => client.follow(nodeId, type, { user: user || null }))),
          ),
        ),
      );
      const cy = graph.current;
      if (!answers || !cy) return false;
      let dropped = 0;
      setExpansions((n) => n + nodeIds.length);
      answers.forEach((answer, i) => {
        const nodeId = nodeIds[i]!;
        expanded.current.add(nodeId);
        const has = (elementId: string) => !cy.getElementById(elementId).empty();
        const found = linksToElements(nodeId, answer, has, NODE_CAP - cy.nodes().length);
        cy.add(found.added);
        dropped += found.dropped;
      });
      setNote(dropped ? `${dropped} more neighbours not drawn: the view shows at most ${NODE_CAP} nodes.` : "");
      return true;
    },
    [client, run, user],
  );

  const settle = useCallback(() => {
    const cy = graph.current;
    if (!cy) return;
    const started = performance.now();
    const layout: cytoscape.LayoutOptions =
      cy.nodes().length <= FORCE_LAYOUT_MAX
        ? { name: "cose", animate: false, randomize: false, fit: true, numIter: 400 }
        : {
            name: "breadthfirst",
            roots: cy.nodes(".start").map((node) => node.id()),
            circle: true,
            spacingFactor: 0.9,
            animate: false,
            fit: true,
          };
    cy.layout(layout).run();
    setLayoutMs(Math.round(performance.now() - started));
    setCount(cy.nodes().length);
    setReady(true);
  }, []);

  const expand = useCallback(
    async (nodeId: string) => {
      if (await grow([nodeId])) settle();
    },
    [grow, settle],
  );

  /** Expands the drawn nodes not yet expanded, concepts (the hubs) first, a few at a time, until the cap or nothing
   * more to follow; one layout at the end. */
  const expandToCap = useCallback(async () => {
    const cy = graph.current;
    if (!cy) return;
    setBusy(true);
    setReady(false);
    for (;;) {
      const frontier = cy
        .nodes()
        .filter((node) => !expanded.current.has(node.id()))
        .sort((a, b) => Number(b.data("type") === "Concept") - Number(a.data("type") === "Concept"))
        .map((node) => node.id());
      if (cy.nodes().length >= NODE_CAP || frontier.length === 0) break;
      if (!(await grow(frontier.slice(0, EXPAND_AT_ONCE))) || graph.current !== cy) break;
    }
    if (graph.current === cy) settle();
    setBusy(false);
  }, [grow, settle]);

  useEffect(() => {
    if (!box.current) return;
    markCytoscapeStylesheet();
    const cy = cytoscape({ container: box.current, style: STYLE, wheelSensitivity: 0.3 });
    graph.current = cy;
    expanded.current = new Set();
    cy.on("tap", "node", (event) => {
      const node = event.target as NodeSingular;
      setSelected({ id: node.id(), type: String(node.data("type")), text: String(node.data("text")) });
      void expand(node.id());
    });
    void (async () => {
      const start = await run(() => client.memory(id, { user: user || null }));
      const text = start && "text" in start ? start.text : id;
      if (graph.current !== cy) return;
      cy.add({
        group: "nodes",
        classes: "start",
        data: {
          id,
          label: text.slice(0, 40),
          type: start?.__typename ?? "Node",
          colour: COLOURS[start?.__typename ?? ""] ?? "#444",
          text,
        },
      });
      await expand(id);
    })();
    return () => {
      cy.destroy();
      graph.current = null;
    };
  }, [client, run, expand, id, user]);

  return (
    <section aria-labelledby="graph-title">
      <h1 id="graph-title">Graph around a memory</h1>
      <p role="status" className="count">
        {count} nodes drawn (at most {NODE_CAP}); click a node to expand it. {note}
      </p>
      <p>
        <button
          type="button"
          className="expand-all"
          disabled={!ready || busy || count >= NODE_CAP}
          onClick={() => void expandToCap()}
        >
          {busy ? "Expanding…" : `Expand to the cap (${NODE_CAP} nodes)`}
        </button>
      </p>
      <div
        ref={box}
        className="graph"
        data-nodes={count}
        data-ready={ready ? "yes" : "no"}
        data-expanded={expansions}
        data-requests={requests}
        data-layout-ms={layoutMs}
        aria-label="Graph view"
        role="img"
      />
      {selected && (
        <aside className="selected">
          <strong>{selected.type}</strong>: <span className="text">{selected.text}</span>{" "}
          {selected.type !== "Concept" && selected.type !== "Source" && (
            <a href={hrefOf({ view: "memory", user, id: selected.id })}>open its page</a>
          )}
        </aside>
      )}
    </section>
  );
}
