// Filters users by handle and name over the search index as the visitor types. Without
// JavaScript the home page still lists the newest users; this only adds search over every user.
// The index is where the search form points (`action`), which carries the site's base path:
// a site under a folder fetches its own index, and the users' URLs in it carry the path too.
(function () {
  "use strict";
  var input = document.getElementById("search-input");
  var list = document.getElementById("user-list");
  var none = document.getElementById("no-results");
  if (!input || !list) { return; }
  var original = Array.prototype.slice.call(list.children);
  var everyone = null;

  function card(user) {
    var item = document.createElement("li");
    item.className = "user-card";
    item.setAttribute("data-handle", user.handle);
    var link = document.createElement("a");
    link.href = user.url;
    var text = document.createElement("span");
    text.className = "card-text";
    var name = document.createElement("span");
    name.className = "name";
    name.textContent = user.name;
    var handle = document.createElement("span");
    handle.className = "handle";
    handle.textContent = "@" + user.handle;
    text.appendChild(name);
    text.appendChild(handle);
    link.appendChild(text);
    item.appendChild(link);
    return item;
  }

  function show(query) {
    var needle = query.trim().toLowerCase();
    list.textContent = "";
    if (!needle) {
      original.forEach(function (item) { list.appendChild(item); });
      if (none) { none.hidden = true; }
      return;
    }
    var matches = (everyone || []).filter(function (user) {
      return user.handle.indexOf(needle) !== -1 || user.name.toLowerCase().indexOf(needle) !== -1;
    });
    matches.slice(0, 100).forEach(function (user) { list.appendChild(card(user)); });
    if (none) { none.hidden = matches.length !== 0; }
  }

  input.addEventListener("input", function () {
    if (everyone) { show(input.value); return; }
    fetch(input.form.action)
      .then(function (response) { return response.json(); })
      .then(function (data) { everyone = data.users || []; show(input.value); })
      .catch(function () { everyone = []; });
  });
  input.form.addEventListener("submit", function (event) { event.preventDefault(); });
})();
