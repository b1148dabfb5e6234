import { print, type DocumentNode } from "graphql";
import { CombinedGraphQLErrors } from "@apollo/client/errors";
import { CSRF_HEADERS } from "./apollo.ts";

/**
 * Send a GraphQL mutation with one file (GraphQL multipart request spec) and report progress.
 * XMLHttpRequest rather than fetch because only it reports upload progress in browsers.
 * Resolves with `data`; rejects with CombinedGraphQLErrors (so handleError applies) or a TypeError.
 */
export function uploadWithProgress<TData>(
  document: DocumentNode,
  variables: Record<string, unknown>,
  fileVariable: string,
  file: File,
  onProgress: (percent: number) => void,
): Promise<TData> {
  const form = new FormData();
  form.append(
    "operations",
    JSON.stringify({ query: print(document), variables: { ...variables, [fileVariable]: null } }),
  );
  form.append("map", JSON.stringify({ 0: [`variables.${fileVariable}`] }));
  form.append("0", file, file.name);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/graphql");
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(CSRF_HEADERS)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onerror = () => reject(new TypeError("Network error"));
    xhr.onload = () => {
      let body: { data?: TData; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        reject(new TypeError(`Upload failed (${xhr.status})`));
        return;
      }
      if (body.errors?.length) reject(new CombinedGraphQLErrors({ errors: body.errors, data: body.data }));
      else resolve(body.data as TData);
    };
    xhr.send(form);
  });
}
