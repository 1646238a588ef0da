import { type ReactNode, useEffect, useRef, useState } from "react";

const CUT = 400;

/** Memory text is the app's users' input: rendered as text (React escapes it), long ones cut with an expander. */
export function LongText({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  if (text.length <= CUT) return <span className="text">{text}</span>;
  return (
    <span className="text">
      {open ? text : `${text.slice(0, CUT)}…`}{" "}
      <button type="button" className="link" onClick={() => setOpen(!open)}>
        {open ? "show less" : `show all ${text.length} characters`}
      </button>
    </span>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** A confirmation that names what goes, in the page (no window.confirm). It takes the focus on its safe choice
 * (Cancel), so a keyboard user lands in it; Escape cancels. */
export function Confirm(props: { what: string; onYes: () => void; onNo: () => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div
      className="confirm"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="confirm-what"
      onKeyDown={(event) => {
        if (event.key === "Escape") props.onNo();
      }}
    >
      <p id="confirm-what">{props.what}</p>
      <button type="button" className="danger" onClick={props.onYes}>
        Forget
      </button>{" "}
      <button type="button" ref={cancel} onClick={props.onNo}>
        Cancel
      </button>
    </div>
  );
}

export function when(value: string | null | undefined): string {
  if (!value) return "—";
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? value
    : date
        .toISOString()
        .replace("T", " ")
        .replace(/\.\d+Z$/, "Z");
}

export function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A proposition's atomic fact as the API gives it (`fact` of a memory, a proposition, a history step). */
export interface FactFields {
  subject: string;
  attribute: string;
  value: string;
  valueType: string | null;
  aspect: string | null;
  polarity: boolean;
  ends: string[];
}

/** A fact's value as read: a negated one says so, one that named none reads as a dash. */
export function factValue(fact: FactFields): string {
  const value = fact.value || "—";
  return fact.polarity ? value : `not ${value}`;
}

/** "attribute · value", or with `subject` "subject · attribute · value": text, never markup (it is users' input). */
export function FactLine({ fact, subject = false }: { fact: FactFields; subject?: boolean }) {
  const parts = [...(subject ? [fact.subject || "?"] : []), fact.attribute, factValue(fact)];
  return (
    <span className="fact" data-attribute={fact.attribute} data-value={fact.value}>
      {parts.join(" · ")}
    </span>
  );
}
