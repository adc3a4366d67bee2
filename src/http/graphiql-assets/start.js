// Starts GraphiQL on the /graphiql page (src/http/graphiql.ts). Plain browser script, no build
// step: React, ReactDOM and GraphiQL are globals from the UMD bundles loaded before it.
(function () {
  "use strict";

  var root = document.getElementById("graphiql");
  var settings = JSON.parse(root.getAttribute("data-settings"));

  var PLACEHOLDER = "<your API key>";

  var defaultQuery = [
    "# The portfolio service's GraphQL API. This IDE is served",
    "# by the service itself: it works without internet.",
    "#",
    "# 1. In Headers (below), replace " + PLACEHOLDER,
    "#    with your API key. Keys are secrets: this page",
    "#    never saves headers; paste the key after a reload.",
    "# 2. Run with the play button or Ctrl-Enter.",
    "#",
    "# Docs (book icon, top left) lists the whole schema;",
    "# it needs no key.",
    "",
    "{",
    "  portfolios {",
    "    id",
    "    name",
    "  }",
    "}",
    "",
  ].join("\n");

  var defaultHeaders = JSON.stringify({ Authorization: PLACEHOLDER }, null, 2);

  var fetchGraphQL = GraphiQL.createFetcher({ url: settings.endpoint });

  // The placeholder is not a key: leave it out, so the schema (introspection, allowed without a
  // key) still loads and a query answers UNAUTHENTICATED with the service's own explanation.
  function fetcher(params, options) {
    var headers = Object.assign({}, options && options.headers);
    Object.keys(headers).forEach(function (name) {
      if (String(headers[name]).trim() === PLACEHOLDER) delete headers[name];
    });
    return fetchGraphQL(params, Object.assign({}, options, { headers: headers }));
  }

  // GraphiQL 3 keeps each run's headers in its history (graphiql:queries, graphiql:favorites)
  // whatever shouldPersistHeaders says: its storage goes through this, which drops them.
  var HISTORY = /^graphiql:(queries|favorites)$/;
  function withoutHeaders(value) {
    try {
      var history = JSON.parse(value);
      (history.queries || []).forEach(function (entry) {
        delete entry.headers;
      });
      return JSON.stringify(history);
    } catch (e) {
      return "";
    }
  }
  var storage = {
    getItem: function (key) {
      return window.localStorage.getItem(key);
    },
    setItem: function (key, value) {
      window.localStorage.setItem(key, HISTORY.test(key) ? withoutHeaders(value) : value);
    },
    removeItem: function (key) {
      window.localStorage.removeItem(key);
    },
    clear: function () {
      Object.keys(window.localStorage).forEach(function (key) {
        if (key.indexOf("graphiql:") === 0) window.localStorage.removeItem(key);
      });
    },
    get length() {
      return window.localStorage.length;
    },
  };

  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: defaultQuery,
      defaultHeaders: defaultHeaders,
      defaultEditorToolsVisibility: "headers",
      isHeadersEditorEnabled: true,
      // API keys are secrets: headers never reach localStorage (no opt-in toggle either), so a
      // key typed on a shared office computer is gone when the tab closes.
      shouldPersistHeaders: false,
      storage: storage,
    }),
  );
})();
