// Where the inspector is: kept in the URL's hash (user names and memory ids, never the key) so Back works.
export type Place =
  | { view: "users" }
  | { view: "explorer" }
  | { view: "memories"; user: string }
  | { view: "profile"; user: string }
  | { view: "memory"; user: string; id: string }
  | { view: "search"; user: string }
  | { view: "remember"; user: string }
  | { view: "graph"; user: string; id: string };

export function parsePlace(hash: string): Place {
  const [view = "users", query = ""] = hash.replace(/^#\/?/, "").split("?");
  const params = new URLSearchParams(query);
  const user = params.get("user") ?? "";
  const id = params.get("id") ?? "";
  switch (view) {
    case "memories":
    case "profile":
    case "search":
    case "remember":
      return { view, user };
    case "memory":
    case "graph":
      return id ? { view, user, id } : { view: "memories", user };
    case "explorer":
      return { view };
    default:
      return { view: "users" };
  }
}

export function hrefOf(place: Place): string {
  const params = new URLSearchParams();
  if ("user" in place && place.user) params.set("user", place.user);
  if ("id" in place) params.set("id", place.id);
  const query = params.toString();
  return `#/${place.view}${query ? `?${query}` : ""}`;
}

export function go(place: Place): void {
  window.location.hash = hrefOf(place);
}
