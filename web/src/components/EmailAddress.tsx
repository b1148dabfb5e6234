import { Fragment } from "react";

/**
 * An email address that wraps where a reader expects it to on a narrow screen: before the "@" and
 * before each dot (<wbr>), never inside a name ("maria.alvarez@exa|mple.com").
 */
export function EmailAddress({ email }: { email: string }) {
  const parts = email.split(/(?=[@.])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
