import type { ApolloClient } from "@apollo/client";
import { ApolloProvider } from "@apollo/client/react";
import { BrowserRouter } from "react-router";
import { I18nProvider } from "../i18n/I18nProvider.tsx";
import { ErrorBoundary } from "../features/errors/ErrorPage.tsx";
import { AppRoutes } from "./routes.tsx";

/** The app's providers around its routes; main.tsx makes the Apollo client (and starts the shell's query). */
export function App({ client }: { client: ApolloClient }) {
  return (
    <ApolloProvider client={client}>
      <I18nProvider>
        <ErrorBoundary>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </ErrorBoundary>
      </I18nProvider>
    </ApolloProvider>
  );
}
