import type { ProfileFact, ProfileResult, ProfileSlot } from "@engram/client";
import { useCallback, useEffect, useState } from "react";
import { useApi, useRun } from "../context";
import { hrefOf } from "../nav";
import { Empty, LongText, when } from "../ui";

type Subject = Extract<ProfileResult, { __typename: "Profile" }>["subjects"][number];

/** A fact's value as memory holds it: a correction that named no value reads as its statement. */
function valueOf(fact: ProfileFact): string {
  const value = fact.value || fact.text;
  return fact.polarity ? value : `not ${value}`;
}

/** The turn that told a fact: who said what, when, and the app's turn id. Memory text is rendered as text. */
function ProvingTurn({ fact }: { fact: ProfileFact }) {
  const turn = fact.provenance[0];
  if (!turn) return <span className="meta">no turn (corrected in by hand)</span>;
  return (
    <span className="proof">
      <LongText text={turn.text} />
      <br />
      <span className="meta">
        {turn.speaker || "?"}, {when(turn.occurredAt)}, turn {turn.externalId}
        {fact.provenance.length > 1 ? ` (+${fact.provenance.length - 1} more)` : ""}
      </span>
    </span>
  );
}

function FactLink({ user, fact }: { user: string; fact: ProfileFact }) {
  return (
    <a href={hrefOf({ view: "memory", user, id: fact.propositionId })} title={fact.text}>
      {valueOf(fact)}
    </a>
  );
}

/** What memory believes about the subject now: a row per slot (an ended one says so). */
function Now({ user, subject }: { user: string; subject: Subject }) {
  return (
    <table className="profile-now">
      <caption>What memory believes now</caption>
      <thead>
        <tr>
          <th scope="col">Slot</th>
          <th scope="col">Value</th>
          <th scope="col">Since</th>
          <th scope="col">The proving turn</th>
        </tr>
      </thead>
      <tbody>
        {subject.slots.map((slot) => {
          const now = [slot.current, ...slot.alsoCurrent].filter((f): f is ProfileFact => f !== null);
          if (now.length === 0) {
            return (
              <tr key={slot.slot} data-slot={slot.slot} className="ended">
                <th scope="row">{slot.slot}</th>
                <td className="value">(no longer)</td>
                <td>—</td>
                <td className="meta">every value it held was replaced: see before</td>
              </tr>
            );
          }
          return now.map((fact, index) => (
            <tr key={fact.propositionId} data-slot={slot.slot} data-value={fact.value}>
              <th scope="row">{index === 0 ? slot.slot : <span className="sr-only">{slot.slot}</span>}</th>
              <td className="value">
                <FactLink user={user} fact={fact} />
                {fact.valueType && <span className="meta"> {fact.valueType}</span>}
              </td>
              <td className="since">{when(fact.validFrom)}</td>
              <td>
                <ProvingTurn fact={fact} />
              </td>
            </tr>
          ));
        })}
      </tbody>
    </table>
  );
}

/** What memory believed before: each slot's earlier versions, newest first, with when they held. */
function Before({ user, slots }: { user: string; slots: ProfileSlot[] }) {
  const earlier = slots.filter((slot) => slot.history.length > 0);
  if (earlier.length === 0) return <p className="meta">Nothing it believed before has changed.</p>;
  return (
    <table className="profile-before">
      <caption>What memory believed before</caption>
      <thead>
        <tr>
          <th scope="col">Slot</th>
          <th scope="col">Value</th>
          <th scope="col">Valid from</th>
          <th scope="col">Valid to</th>
          <th scope="col">Why it ended</th>
          <th scope="col">The proving turn</th>
        </tr>
      </thead>
      <tbody>
        {earlier.flatMap((slot) =>
          slot.history.map((fact) => (
            <tr key={fact.propositionId} data-slot={slot.slot} data-value={fact.value}>
              <th scope="row">{slot.slot}</th>
              <td className="value">
                <FactLink user={user} fact={fact} />
              </td>
              <td>{when(fact.validFrom)}</td>
              <td className="until">{when(fact.validTo)}</td>
              <td>
                {fact.reason ?? "replaced"}
                {fact.supersededBy && (
                  <>
                    {" "}
                    by <a href={hrefOf({ view: "memory", user, id: fact.supersededBy })}>the later fact</a>
                  </>
                )}
              </td>
              <td>
                <ProvingTurn fact={fact} />
              </td>
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}

/** A user's profile: per subject (the user first), each slot's current fact and what memory believed before. */
export function ProfileView({ user }: { user: string }) {
  const { client } = useApi();
  const run = useRun();
  const [profile, setProfile] = useState<ProfileResult | null>(null);

  const load = useCallback(async () => {
    if (!user) return;
    const found = await run(() => client.profile(user));
    if (found) setProfile(found);
  }, [client, run, user]);
  useEffect(() => void load(), [load]);

  if (!user) {
    return (
      <Empty>
        The shared memory has no profile: open a user's profile from the <a href={hrefOf({ view: "users" })}>Users</a>{" "}
        page.
      </Empty>
    );
  }
  if (profile === null) return <p>Loading…</p>;
  if (profile.__typename !== "Profile") return <p className="error">{profile.message}</p>;
  return (
    <section aria-labelledby="profile-title">
      <h1 id="profile-title">Profile of {user}</h1>
      {profile.truncated && <p role="status">Memory holds more facts than one profile shows.</p>}
      {profile.subjects.length === 0 ? (
        <Empty>Memory holds no facts about {user} yet (events and plain statements are not profile entries).</Empty>
      ) : (
        profile.subjects.map((subject) => (
          <section key={subject.subject} className="profile-subject" data-subject={subject.subject}>
            <h2>
              {subject.subject} <span className="count">({subject.facts} facts)</span>
            </h2>
            <Now user={user} subject={subject} />
            <Before user={user} slots={subject.slots} />
          </section>
        ))
      )}
    </section>
  );
}
