import type { Stats } from "@engram/client";
import { useCallback, useEffect, useState } from "react";
import { useApi, useRun } from "../context";
import { hrefOf } from "../nav";
import { Confirm, download, Empty } from "../ui";

interface Row {
  user: string;
  stats: Stats | undefined;
}

/** Exports a user's memory, page by page, as one JSONL file (the ingest format: ingesting it restores the memory). */
export async function exportText(client: ReturnType<typeof useApi>["client"], user: string): Promise<string> {
  let text = "";
  for await (const page of client.export({ user: user || null })) text += page.jsonl;
  return text;
}

export function UsersView() {
  const { client } = useApi();
  const run = useRun();
  const [rows, setRows] = useState<Row[] | null>(null);
  const [doomed, setDoomed] = useState<Row | null>(null);
  const [done, setDone] = useState("");

  const load = useCallback(async () => {
    const listed = await run(async () => {
      const users: string[] = [];
      for await (const user of client.users()) users.push(user);
      const rows = await Promise.all(users.map(async (user) => ({ user, stats: await client.stats({ user }) })));
      // The space's shared memory (records with no user) is listed first when it holds anything.
      const shared = await client.stats();
      return shared.episodes > 0 || shared.sources > 0 ? [{ user: "", stats: shared }, ...rows] : rows;
    });
    if (listed) setRows(listed);
  }, [client, run]);
  useEffect(() => void load(), [load]);

  async function forget(row: Row) {
    setDoomed(null);
    const gone = await run(() => client.forget({ user: row.user }));
    if (gone?.__typename === "Forgotten") {
      setDone(`Forgot ${row.user}: ${gone.episodesRemoved ?? 0} episodes, ${gone.knowledgeRemoved ?? 0} facts.`);
    } else if (gone) setDone(gone.message);
    await load();
  }

  async function exportUser(user: string) {
    const text = await run(() => exportText(client, user));
    if (text !== undefined) download(`engram-${user || "shared"}.jsonl`, text);
  }

  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">Users</h1>
      {done && <p role="status">{done}</p>}
      {doomed && (
        <Confirm
          what={`Forget the whole memory of user "${doomed.user}": ${doomed.stats?.episodes ?? 0} episodes, ${
            doomed.stats?.propositions ?? 0
          } facts and ${doomed.stats?.sources ?? 0} sources? This cannot be undone.`}
          onYes={() => void forget(doomed)}
          onNo={() => setDoomed(null)}
        />
      )}
      {rows === null ? (
        <p>Loading…</p>
      ) : rows.length === 0 ? (
        <Empty>
          Nothing in this space yet. <a href={hrefOf({ view: "remember", user: "" })}>Remember</a> something for a user
          to start.
        </Empty>
      ) : (
        <table className="users">
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Episodes</th>
              <th scope="col">Facts (current)</th>
              <th scope="col">Sources</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.user} data-user={row.user}>
                <td>
                  <a href={hrefOf({ view: "memories", user: row.user })}>{row.user || "(shared memory)"}</a>
                </td>
                <td>{row.stats?.episodes}</td>
                <td>
                  {row.stats?.propositions} ({row.stats?.activePropositions})
                </td>
                <td>{row.stats?.sources}</td>
                <td className="actions">
                  {row.user && (
                    <>
                      <a href={hrefOf({ view: "profile", user: row.user })}>Profile</a>{" "}
                    </>
                  )}
                  <a href={hrefOf({ view: "search", user: row.user })}>Search</a>{" "}
                  <button type="button" onClick={() => void exportUser(row.user)}>
                    Export
                  </button>{" "}
                  {row.user && (
                    <button type="button" className="danger" onClick={() => setDoomed(row)}>
                      Forget user
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
