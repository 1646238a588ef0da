import type { MemoryItem, MemoryKind } from "@engram/client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { useApi, useRun } from "../context";
import { hrefOf } from "../nav";
import { Empty, FactLine, when } from "../ui";

const PAGE = 100;
const KINDS: MemoryKind[] = ["PROPOSITION", "PRESCRIPTION", "EPISODE"];

interface Filters {
  kinds: MemoryKind[];
  session: string;
  agent: string;
  metadata: string;
  since: string;
  until: string;
  includeSuperseded: boolean;
}

const NO_FILTERS: Filters = {
  kinds: ["PROPOSITION", "PRESCRIPTION"],
  session: "",
  agent: "",
  metadata: "",
  since: "",
  until: "",
  includeSuperseded: false,
};

function variables(user: string, filters: Filters) {
  const iso = (day: string) => (day ? new Date(day).toISOString() : null);
  return {
    user: user || null,
    kinds: filters.kinds,
    session: filters.session || null,
    agent: filters.agent || null,
    metadata: filters.metadata ? (JSON.parse(filters.metadata) as unknown) : null,
    since: iso(filters.since),
    until: iso(filters.until),
    includeSuperseded: filters.includeSuperseded,
    first: PAGE,
  };
}

/** A user's memories, newest first, filtered; pages of 100 fetched as the virtualised list scrolls to them. */
export function MemoriesView({ user }: { user: string }) {
  const { client } = useApi();
  const run = useRun();
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [problem, setProblem] = useState("");
  const [items, setItems] = useState<MemoryItem[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [pages, setPages] = useState(0); // pages received (the browser tests wait on it)
  const cursor = useRef<string | null>(null);
  const more = useRef(true);
  const loading = useRef(false);
  const generation = useRef(0);

  const loadPage = useCallback(async () => {
    if (loading.current || !more.current) return;
    loading.current = true;
    const mine = generation.current;
    const page = await run(() => client.memoriesPage({ ...variables(user, filters), after: cursor.current }));
    loading.current = false;
    if (!page || mine !== generation.current) return;
    cursor.current = page.pageInfo.endCursor;
    more.current = page.pageInfo.hasNextPage;
    setTotal(page.totalCount ?? null);
    setPages((n) => n + 1);
    setItems((before) => [...before, ...page.edges.map((edge) => edge.node)]);
  }, [client, run, user, filters]);

  useEffect(() => {
    generation.current += 1;
    cursor.current = null;
    more.current = true;
    loading.current = false;
    setItems([]);
    setTotal(null);
    void loadPage();
  }, [loadPage]);

  const scroller = useRef<HTMLDivElement>(null);
  const rows = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 56,
    overscan: 10,
  });
  const visible = rows.getVirtualItems();
  const last = visible.at(-1)?.index ?? 0;
  useEffect(() => {
    if (items.length > 0 && last >= items.length - 20) void loadPage();
  }, [last, items.length, loadPage]);

  function apply(event: FormEvent) {
    event.preventDefault();
    if (draft.metadata) {
      try {
        const parsed: unknown = JSON.parse(draft.metadata);
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
      } catch {
        setProblem('Metadata must be a JSON object, e.g. {"channel": "web"}.');
        return;
      }
    }
    setProblem("");
    setFilters({ ...draft });
  }

  const toggle = (kind: MemoryKind) =>
    setDraft({
      ...draft,
      kinds: draft.kinds.includes(kind) ? draft.kinds.filter((k) => k !== kind) : [...draft.kinds, kind],
    });

  return (
    <section aria-labelledby="memories-title">
      <h1 id="memories-title">Memories of {user || "the shared memory"}</h1>
      <form className="filters" onSubmit={apply}>
        <fieldset>
          <legend>Kind</legend>
          {KINDS.map((kind) => (
            <label key={kind}>
              <input type="checkbox" checked={draft.kinds.includes(kind)} onChange={() => toggle(kind)} />{" "}
              {kind.toLowerCase()}
            </label>
          ))}
          <label>
            <input
              type="checkbox"
              checked={draft.includeSuperseded}
              onChange={(e) => setDraft({ ...draft, includeSuperseded: e.target.checked })}
            />{" "}
            superseded too
          </label>
        </fieldset>
        {(["session", "agent", "metadata"] as const).map((field) => (
          <label key={field}>
            {field}{" "}
            <input
              name={field}
              value={draft[field]}
              onChange={(e) => setDraft({ ...draft, [field]: e.target.value })}
            />
          </label>
        ))}
        <label>
          since{" "}
          <input type="date" value={draft.since} onChange={(e) => setDraft({ ...draft, since: e.target.value })} />
        </label>
        <label>
          until{" "}
          <input type="date" value={draft.until} onChange={(e) => setDraft({ ...draft, until: e.target.value })} />
        </label>
        <button type="submit">Filter</button>{" "}
        <button type="button" onClick={() => setFilters({ ...draft, kinds: ["EPISODE"] })}>
          Timeline of episodes
        </button>
      </form>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <p role="status" className="count" data-pages={pages}>
        {total === null ? "Loading…" : `${total} memories`}
      </p>
      {total === 0 ? (
        <Empty>
          Nothing here for these filters. <a href={hrefOf({ view: "remember", user })}>Remember</a> something.
        </Empty>
      ) : (
        <div ref={scroller} className="scroller" data-loaded={items.length} tabIndex={0} aria-label="Memory list">
          <ul className="rows" style={{ height: rows.getTotalSize() }}>
            {visible.map((row) => {
              const memory = items[row.index]!;
              return (
                <li
                  key={memory.id}
                  className={`row ${memory.status.toLowerCase()}`}
                  style={{ transform: `translateY(${row.start}px)` }}
                  data-index={row.index}
                >
                  <span className="kind">{memory.kind.toLowerCase()}</span>
                  {memory.fact && <FactLine fact={memory.fact} />}
                  <a href={hrefOf({ view: "memory", user, id: memory.id })} className="text">
                    {memory.text.length > 200 ? `${memory.text.slice(0, 200)}…` : memory.text}
                  </a>
                  <span className="at">{when(memory.at)}</span>
                  {memory.status !== "active" && memory.status !== "ACTIVE" && (
                    <span className="status">{memory.status.toLowerCase()}</span>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </section>
  );
}
