import type { HistoryResult, MemoryNode } from "@engram/client";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useApi, useRun } from "../context";
import { go, hrefOf } from "../nav";
import { Confirm, Empty, FactLine, LongText, when } from "../ui";

type Doomed = { what: string; input: { knowledgeIds?: string[]; sourceIds?: string[]; episodeIds?: string[] } };

/** One memory: its text, its fact (subject · attribute · value), validity, the turns that prove it, its supersession
 * chain and what ended it, and correct / forget in place. */
export function MemoryView({ user, id }: { user: string; id: string }) {
  const { client } = useApi();
  const run = useRun();
  const [memory, setMemory] = useState<MemoryNode | undefined>(undefined);
  const [history, setHistory] = useState<HistoryResult | null>(null);
  const [endedBy, setEndedBy] = useState<MemoryNode>(null);
  const [text, setText] = useState("");
  const [reason, setReason] = useState("");
  const [note, setNote] = useState("");
  const [doomed, setDoomed] = useState<Doomed | null>(null);
  const scope = { user: user || null };

  const load = useCallback(async () => {
    const node = await run(() => client.memory(id, { user: user || null }));
    if (node === undefined) return;
    setMemory(node);
    setEndedBy(null);
    if (node?.__typename === "Proposition") {
      const successor = node.supersededBy;
      const [chain, later] = await Promise.all([
        run(() => client.history(id, { user: user || null })),
        successor ? run(() => client.memory(successor, { user: user || null })) : Promise.resolve(null),
      ]);
      setHistory(chain ?? null);
      setEndedBy(later ?? null);
    }
  }, [client, run, id, user]);
  useEffect(() => void load(), [load]);

  async function correct(event: FormEvent) {
    event.preventDefault();
    const result = await run(() => client.correct(id, text, { ...scope, reason }));
    if (!result) return;
    if (result.__typename === "Corrected") {
      setText("");
      go({ view: "memory", user, id: result.propositionId });
    } else setNote(result.message);
  }

  async function forget(doom: Doomed) {
    setDoomed(null);
    const gone = await run(() => client.forget({ ...doom.input, ...scope }));
    if (gone?.__typename === "Forgotten") go({ view: "memories", user });
    else if (gone) setNote(gone.message);
  }

  if (memory === undefined) return <p>Loading…</p>;
  if (memory === null) return <Empty>No memory {id} for this user: it may have been forgotten.</Empty>;
  if (!("text" in memory)) {
    return (
      <Empty>
        {memory.__typename} {id} is not a memory: see it in the <a href={hrefOf({ view: "graph", user, id })}>graph</a>.
      </Empty>
    );
  }
  const shortText = memory.text.slice(0, 120);
  const provenance = "provenance" in memory ? memory.provenance : [];
  const sources = new Map(provenance.flatMap((turn) => (turn.source ? [[turn.source.id, turn.source]] : [])));
  return (
    <section aria-labelledby="memory-title">
      <h1 id="memory-title">{memory.__typename}</h1>
      {doomed && <Confirm what={doomed.what} onYes={() => void forget(doomed)} onNo={() => setDoomed(null)} />}
      {note && <p role="status">{note}</p>}
      <blockquote className="memory-text">
        <LongText text={memory.text} />
      </blockquote>
      {memory.__typename === "Proposition" && (
        <dl className="validity">
          {memory.fact && (
            <>
              <dt>Fact</dt>
              <dd className="fact-of">
                <FactLine fact={memory.fact} subject />
                {(memory.fact.aspect || memory.fact.valueType) && (
                  <span className="meta">
                    {" "}
                    ({[memory.fact.aspect, memory.fact.valueType].filter(Boolean).join(", ")})
                  </span>
                )}
              </dd>
              {memory.fact.ends.length > 0 && (
                <>
                  <dt>Ends</dt>
                  <dd>{memory.fact.ends.join(", ")}</dd>
                </>
              )}
            </>
          )}
          <dt>Status</dt>
          <dd className="status">{memory.status.toLowerCase()}</dd>
          <dt>Valid from</dt>
          <dd>{when(memory.validFrom)}</dd>
          <dt>Valid to</dt>
          <dd>{when(memory.validTo)}</dd>
          {memory.supersededBy && (
            <>
              <dt>Ended by</dt>
              <dd className="ended-by">
                <a href={hrefOf({ view: "memory", user, id: memory.supersededBy })}>
                  {endedBy?.__typename === "Proposition" ? (
                    endedBy.fact ? (
                      <FactLine fact={endedBy.fact} />
                    ) : (
                      <LongText text={endedBy.text} />
                    )
                  ) : (
                    "the later fact"
                  )}
                </a>
              </dd>
            </>
          )}
          <dt>Recorded</dt>
          <dd>{when(memory.recordedAt)}</dd>
          <dt>Concepts</dt>
          <dd>{memory.concepts.map((c) => c.key).join(", ") || "—"}</dd>
        </dl>
      )}
      <p>
        <a href={hrefOf({ view: "graph", user, id })}>Graph of its neighbourhood</a>
      </p>

      {memory.__typename !== "Episode" && (
        <>
          <h2>Provenance</h2>
          {provenance.length === 0 ? (
            <Empty>No turn proves it (it was corrected in by hand).</Empty>
          ) : (
            <table className="provenance">
              <thead>
                <tr>
                  <th scope="col">Speaker</th>
                  <th scope="col">Said</th>
                  <th scope="col">When</th>
                  <th scope="col">Source (session)</th>
                  <th scope="col">Turn id</th>
                </tr>
              </thead>
              <tbody>
                {provenance.map((turn) => (
                  <tr key={turn.id}>
                    <td>{turn.speaker}</td>
                    <td>
                      <LongText text={turn.text} />
                    </td>
                    <td>{when(turn.occurredAt)}</td>
                    <td>{turn.source ? `${turn.source.kind} ${turn.source.externalId}` : "—"}</td>
                    <td>{turn.externalId}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
      {memory.__typename === "Episode" && (
        <dl className="validity">
          <dt>Speaker</dt>
          <dd>{memory.speaker}</dd>
          <dt>When</dt>
          <dd>{when(memory.occurredAt)}</dd>
          <dt>Source</dt>
          <dd>{memory.source ? `${memory.source.kind} ${memory.source.externalId}` : "—"}</dd>
          <dt>Proves</dt>
          <dd>
            {memory.knowledge.map((k) => (
              <div key={k.id}>
                <a href={hrefOf({ view: "memory", user, id: k.id })}>{k.text}</a>
              </div>
            ))}
          </dd>
        </dl>
      )}

      {history?.__typename === "History" && (
        <>
          <h2>Supersession chain</h2>
          {history.currentId && history.currentId !== id && (
            <p>
              Replaced: <a href={hrefOf({ view: "memory", user, id: history.currentId })}>the fact that stands now</a>
            </p>
          )}
          {history.replaced.length === 0 ? (
            <p className="chain-empty">It replaced nothing.</p>
          ) : (
            <ol className="chain">
              {history.replaced.map((step) => (
                <li key={step.propositionId}>
                  <a href={hrefOf({ view: "memory", user, id: step.propositionId })}>
                    <LongText text={step.text} />
                  </a>{" "}
                  {step.fact && (
                    <>
                      <FactLine fact={step.fact} />{" "}
                    </>
                  )}
                  <span className="reason">
                    ({step.reason}, {step.status.toLowerCase()}, until {when(step.validTo ?? step.expiredAt)})
                  </span>
                </li>
              ))}
            </ol>
          )}
        </>
      )}

      {memory.__typename === "Proposition" && memory.status === "ACTIVE" && (
        <form className="correct" onSubmit={(event) => void correct(event)}>
          <h2>Correct it</h2>
          <label htmlFor="correct-text">What is true instead</label>
          <textarea id="correct-text" value={text} onChange={(e) => setText(e.target.value)} rows={2} />
          <label htmlFor="correct-reason">Why (optional)</label>
          <input id="correct-reason" value={reason} onChange={(e) => setReason(e.target.value)} />
          <button type="submit" disabled={!text.trim()}>
            Correct
          </button>
        </form>
      )}

      <h2>Forget</h2>
      <p className="forget">
        {memory.__typename !== "Episode" ? (
          <button
            type="button"
            className="danger"
            onClick={() => setDoomed({ what: `Forget this fact: "${shortText}"?`, input: { knowledgeIds: [id] } })}
          >
            Forget this memory
          </button>
        ) : (
          <button
            type="button"
            className="danger"
            onClick={() =>
              setDoomed({
                what: `Forget this turn and the facts only it proves: "${shortText}"?`,
                input: { episodeIds: [id] },
              })
            }
          >
            Forget this turn
          </button>
        )}{" "}
        {[...sources.values()].map((source) => (
          <button
            key={source.id}
            type="button"
            className="danger"
            onClick={() =>
              setDoomed({
                what: `Forget the whole ${source.kind} ${source.externalId} (${source.title || "untitled"}), every turn in it and the facts only it proves?`,
                input: { sourceIds: [source.id] },
              })
            }
          >
            Forget source {source.externalId}
          </button>
        ))}
      </p>
    </section>
  );
}
