import { type FormEvent, lazy, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { type Api, ApiContext, type Recovery } from "./context";
import { hrefOf, parsePlace, type Place } from "./nav";
import { clientFor, describe, forgetKey, storedKey, storeKey } from "./session";
import { MemoriesView } from "./views/Memories";
import { MemoryView } from "./views/Memory";
import { ProfileView } from "./views/Profile";
import { RememberView } from "./views/Remember";
import { SearchView } from "./views/Search";
import { UsersView } from "./views/Users";

// The graph library is the largest piece: loaded when the graph view opens, not on first load.
const GraphView = lazy(() => import("./views/Graph"));
// GraphiQL likewise: the explorer tab loads it when opened.
const Explorer = lazy(() => import("./views/Explorer"));

function SignIn(props: { onKey: (key: string) => void; message: string }) {
  const [key, setKey] = useState("");
  const [message, setMessage] = useState(props.message);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await clientFor(key.trim()).stats();
      storeKey(key.trim());
      props.onKey(key.trim());
    } catch (error) {
      setMessage(describe(error).message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <main className="signin">
      <h1>Engram memory inspector</h1>
      <form onSubmit={(event) => void submit(event)}>
        <label htmlFor="space-key">Space key</label>
        <input
          id="space-key"
          type="password"
          autoComplete="off"
          placeholder="egk_..."
          value={key}
          onChange={(e) => setKey(e.target.value)}
        />
        <button type="submit" disabled={busy || !key.trim()}>
          Open
        </button>
      </form>
      {message && (
        <p className="error" role="alert">
          {message}
        </p>
      )}
      <p className="hint">The key stays in this tab (sessionStorage) and is sent only to this server.</p>
    </main>
  );
}

function usePlace(): Place {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const changed = () => setHash(window.location.hash);
    window.addEventListener("hashchange", changed);
    return () => window.removeEventListener("hashchange", changed);
  }, []);
  return parsePlace(hash);
}

export function App() {
  const [key, setKey] = useState<string | null>(storedKey());
  const [signInMessage, setSignInMessage] = useState("");
  const [banner, setBanner] = useState<{ message: string; recovery?: Recovery } | null>(null);
  const place = usePlace();
  // A banner's failed call waits for Retry or Dismiss: given up (dismissed, which is idempotent) when another failure
  // takes the banner or the session ends.
  const signOut = useCallback((message = "") => {
    forgetKey();
    setKey(null);
    setSignInMessage(message);
    setBanner((previous) => {
      previous?.recovery?.dismiss();
      return null;
    });
  }, []);
  const fail = useCallback(
    (error: unknown, recovery?: Recovery) => {
      const failure = describe(error);
      if (failure.endsSession) {
        recovery?.dismiss();
        signOut(failure.message);
        return;
      }
      setBanner((previous) => {
        if (previous?.recovery !== recovery) previous?.recovery?.dismiss();
        return recovery ? { message: failure.message, recovery } : { message: failure.message };
      });
    },
    [signOut],
  );
  const closeBanner = useCallback(
    (retry: boolean) => {
      const recovery = banner?.recovery;
      setBanner(null);
      if (retry) recovery?.retry();
      else recovery?.dismiss();
    },
    [banner],
  );
  const api: Api | null = useMemo(() => (key ? { client: clientFor(key), fail } : null), [key, fail]);
  useEffect(() => () => void api?.client.close(), [api]);

  if (!api) return <SignIn onKey={setKey} message={signInMessage} />;
  const user = "user" in place ? place.user : "";
  const tabs: Array<[Place["view"], string]> = [
    ["users", "Users"],
    ["memories", "Memories"],
    ["profile", "Profile"],
    ["search", "Search"],
    ["remember", "Remember"],
    ["explorer", "GraphQL"],
  ];
  return (
    <ApiContext.Provider value={api}>
      <header>
        <strong>Engram inspector</strong>
        <nav aria-label="Views">
          {tabs.map(([view, label]) => (
            <a
              key={view}
              href={hrefOf(view === "users" || view === "explorer" ? { view } : ({ view, user } as Place))}
              aria-current={place.view === view ? "page" : undefined}
            >
              {label}
            </a>
          ))}
        </nav>
        {user && <span className="who">user: {user}</span>}
        <button type="button" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      {banner && (
        <div className="banner" role="alert">
          {banner.message}{" "}
          {banner.recovery && (
            <button type="button" onClick={() => closeBanner(true)}>
              Retry
            </button>
          )}
          <button type="button" className="link" onClick={() => closeBanner(false)}>
            Dismiss
          </button>
        </div>
      )}
      <main>
        {place.view === "users" && <UsersView />}
        {place.view === "memories" && <MemoriesView key={place.user} user={place.user} />}
        {place.view === "memory" && <MemoryView key={place.id} user={place.user} id={place.id} />}
        {place.view === "profile" && <ProfileView key={place.user} user={place.user} />}
        {place.view === "search" && <SearchView user={place.user} />}
        {place.view === "remember" && <RememberView user={place.user} />}
        {place.view === "explorer" && (
          <Suspense fallback={<p>Loading GraphiQL…</p>}>
            <Explorer />
          </Suspense>
        )}
        {place.view === "graph" && (
          <Suspense fallback={<p>Loading the graph view…</p>}>
            <GraphView key={place.id} user={place.user} id={place.id} />
          </Suspense>
        )}
      </main>
    </ApiContext.Provider>
  );
}
