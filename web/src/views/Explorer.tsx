import { createGraphiQLFetcher } from "@graphiql/toolkit";
import { GraphiQL } from "graphiql";
import "graphiql/graphiql.css";
import { useMemo } from "react";
import { storedKey } from "../session";

/** The real GraphiQL (from npm, served from this origin), with the signed-in space's key on every request. Loaded
 * on demand: it is outside the inspector's first load. */
export default function Explorer() {
  const fetcher = useMemo(
    () =>
      createGraphiQLFetcher({
        url: `${window.location.origin}/graphql`,
        subscriptionUrl: `${window.location.origin.replace(/^http/, "ws")}/graphql`,
        headers: { authorization: `Bearer ${storedKey() ?? ""}` },
        wsConnectionParams: { apiKey: storedKey() ?? "" },
      }),
    [],
  );
  return (
    <section className="explorer" aria-label="GraphQL explorer">
      <GraphiQL fetcher={fetcher} defaultEditorToolsVisibility={false} />
    </section>
  );
}
