import type { JobProgress } from "@engram/client";
import { type FormEvent, useState } from "react";
import { useApi, useRun } from "../context";
import { hrefOf } from "../nav";

function recordsOf(name: string, text: string): unknown {
  if (name.endsWith(".jsonl") || name.endsWith(".ndjson")) {
    return text
      .split("\n")
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as unknown);
  }
  return JSON.parse(text) as unknown;
}

/** Remember a text, or ingest a JSON / JSONL file, and watch the job's progress live over the subscription. */
export function RememberView({ user: initialUser }: { user: string }) {
  const { client } = useApi();
  const run = useRun();
  const [user, setUser] = useState(initialUser);
  const [session, setSession] = useState("");
  const [text, setText] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState("");
  const [progress, setProgress] = useState<JobProgress | null>(null);
  const [jobs, setJobs] = useState(0);

  async function follow(id: string) {
    await run(async () => {
      for await (const event of client.jobProgress(id)) setProgress(event);
    });
    setJobs((n) => n + 1);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem("");
    setProgress(null);
    let job;
    if (file) {
      let records: unknown;
      try {
        records = recordsOf(file.name, await file.text());
      } catch (error) {
        setProblem(`${file.name} is not JSON or JSONL: ${String(error)}`);
        return;
      }
      job = await run(() => client.ingest(records));
    } else {
      job = await run(() => client.remember(text, { user: user || null, session: session || null }));
    }
    if (!job) return;
    if (job.__typename !== "Job") {
      setProblem(job.message + ("problems" in job && job.problems.length ? `: ${job.problems.join("; ")}` : ""));
      return;
    }
    setText("");
    await follow(job.id);
  }

  return (
    <section aria-labelledby="remember-title">
      <h1 id="remember-title">Remember</h1>
      <form className="remember" onSubmit={(event) => void submit(event)}>
        <label htmlFor="remember-user">User</label>
        <input
          id="remember-user"
          value={user}
          onChange={(e) => setUser(e.target.value)}
          placeholder="(shared memory)"
        />
        <label htmlFor="remember-session">Session</label>
        <input
          id="remember-session"
          value={session}
          onChange={(e) => setSession(e.target.value)}
          placeholder="default"
        />
        <label htmlFor="remember-text">Text (a turn the user said)</label>
        <textarea id="remember-text" value={text} rows={4} onChange={(e) => setText(e.target.value)} />
        <label htmlFor="remember-file">
          …or a file of records (JSON or JSONL, the ingest format; users as in the file)
        </label>
        <input
          id="remember-file"
          type="file"
          accept=".json,.jsonl,.ndjson,application/json"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
        <button type="submit" disabled={!text.trim() && !file}>
          Remember
        </button>
      </form>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      {progress && (
        <div className="job" role="status" data-state={progress.state} data-jobs={jobs}>
          <p>
            Job {progress.state.toLowerCase()}: {progress.stage} ({Math.round(progress.fraction * 100)}%)
          </p>
          <progress max={1} value={progress.fraction} aria-label="Job progress" />
          {progress.state === "SUCCEEDED" && (
            <p>
              <a href={hrefOf({ view: "memories", user })}>See the memories of {user || "the shared memory"}</a>
            </p>
          )}
        </div>
      )}
    </section>
  );
}
