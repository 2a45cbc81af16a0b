// Filters users by handle and name over the search index as the visitor types. Without
// JavaScript the home page still lists the newest users, and the search form stays hidden; this
// shows it and adds search over every user.
// The index is where the search form points (`action`), which carries the site's base path:
// a site under a folder fetches its own index, and the users' URLs in it carry the path too.
// A result is built like the user-card template (icon, name, handle, summary), and the list's
// heading says what it shows: the labels "resultsFor" and "noResultsFor" ride on the heading.
(function () {
  "use strict";
  var input = document.getElementById("search-input");
  var list = document.getElementById("user-list");
  var heading = document.getElementById("users-heading");
  if (!input || !list) { return; }
  // The form is hidden until now: without this script, submitting it would open the index.
  input.form.hidden = false;
  var original = Array.prototype.slice.call(list.children);
  var originalHeading = heading ? heading.textContent : "";
  var everyone = null;

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  // The first character as a reader sees it (a flag, a family emoji, an accented letter
  // written in two code points), as the server's placeholder has it.
  function initial(name) {
    var text = name || "?";
    if (typeof Intl !== "undefined" && Intl.Segmenter) {
      var first = new Intl.Segmenter().segment(text)[Symbol.iterator]().next();
      if (!first.done) { return first.value.segment.toUpperCase(); }
    }
    return (Array.from(text)[0] || "?").toUpperCase();
  }

  // What a query and a name are compared as: compatibility forms folded (full-width letters,
  // the ideographic space an input method types), accents and other marks dropped, lower case.
  function key(text) {
    return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  }

  function icon(user) {
    if (!user.icon) {
      var placeholder = element("span", "icon icon-placeholder", initial(user.name));
      placeholder.setAttribute("aria-hidden", "true");
      return placeholder;
    }
    var picture = document.createElement("picture");
    var source = document.createElement("source");
    source.type = "image/webp";
    source.setAttribute("srcset", user.icon.webpSrcset);
    source.setAttribute("sizes", "48px");
    var image = element("img", "icon");
    image.setAttribute("src", user.icon.src);
    image.setAttribute("srcset", user.icon.srcset);
    image.setAttribute("sizes", "48px");
    image.width = user.icon.width;
    image.height = user.icon.height;
    image.alt = "";
    image.loading = "lazy";
    picture.appendChild(source);
    picture.appendChild(image);
    return picture;
  }

  function card(user) {
    var item = element("li", "user-card");
    item.setAttribute("data-handle", user.handle);
    var link = element("a");
    link.href = user.url;
    var text = element("span", "card-text");
    // Like the template: a name and a summary in their own direction, a handle left to right.
    var name = element("span", "name", user.name);
    name.dir = "auto";
    if (user.language) { name.lang = user.language; }
    var handle = element("span", "handle", "@" + user.handle);
    handle.dir = "ltr";
    text.appendChild(name);
    text.appendChild(handle);
    if (user.summary) {
      var summary = element("span", "summary", user.summary);
      summary.dir = "auto";
      if (user.language) { summary.lang = user.language; }
      text.appendChild(summary);
    }
    link.appendChild(icon(user));
    link.appendChild(text);
    item.appendChild(link);
    return item;
  }

  function label(key, query) {
    return heading ? (heading.getAttribute(key) || "").split("{query}").join(query) : "";
  }

  function show(query) {
    // A handle is written "@alice" on every page, and may be searched so.
    var needle = key(query).trim().replace(/^@/, "");
    list.textContent = "";
    if (!needle) {
      original.forEach(function (item) { list.appendChild(item); });
      if (heading) { heading.textContent = originalHeading; }
      return;
    }
    var matches = (everyone || []).filter(function (user) {
      return user.handle.indexOf(needle) !== -1 || user.key.indexOf(needle) !== -1;
    });
    matches.slice(0, 100).forEach(function (user) { list.appendChild(card(user)); });
    if (heading) { heading.textContent = label(matches.length ? "data-results" : "data-no-results", query.trim()); }
  }

  input.addEventListener("input", function () {
    if (everyone) { show(input.value); return; }
    fetch(input.form.action)
      .then(function (response) { return response.json(); })
      .then(function (data) {
        everyone = data.users || [];
        everyone.forEach(function (user) { user.key = key(user.name || ""); });
        show(input.value);
      })
      .catch(function () { everyone = []; });
  });
  input.form.addEventListener("submit", function (event) { event.preventDefault(); });
})();
