/* The feature maps (kit/_feature_map.html): Leaflet draws the GeoJSON the page's config names,
   without its tiles if they cannot load, and a status line says what happened; the page lists
   the same features in a table, so the map is never the only way. External (no nonce, no inline
   style): a map with data-symbols draws each feature with the symbol its kind and condition have
   in the page's legend (an SVG sprite: shape by kind, fill pattern by condition), lines as lines
   with their condition as a badge at their middle. */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";

  function symbolHtml(kind, condition) {
    // Shape by kind, fill by condition; a failed structure also carries a cross.
    var svg = document.createElementNS(SVG, "svg"), use = document.createElementNS(SVG, "use");
    svg.setAttribute("class", "ms4-symbol cond-" + condition);
    svg.setAttribute("viewBox", "0 0 20 20");
    svg.setAttribute("aria-hidden", "true");
    use.setAttribute("href", "#sym-" + kind);
    svg.appendChild(use);
    if (condition === "failed") {
      var cross = document.createElementNS(SVG, "use");
      cross.setAttribute("href", "#mark-failed");
      cross.setAttribute("class", "mark");
      svg.appendChild(cross);
    }
    return svg;
  }

  function symbolIcon(kind, condition) {
    return L.divIcon({ className: "ms4-marker", html: symbolHtml(kind, condition), iconSize: [22, 22], iconAnchor: [11, 11], popupAnchor: [0, -10] });
  }

  function midpoint(coords) {
    var a = coords[Math.floor((coords.length - 1) / 2)], b = coords[Math.ceil((coords.length - 1) / 2)];
    return L.latLng((a[1] + b[1]) / 2, (a[0] + b[0]) / 2);
  }

  function start(container) {
    var o = container.dataset, status = document.getElementById(o.status);
    var noun = o.noun, symbols = o.symbols === "1";
    if (typeof L === "undefined") { status.textContent = "The map could not load; the table below lists every " + noun + "."; return; }
    var config = JSON.parse(document.getElementById(o.config).textContent);
    var map = L.map(container, { keyboard: true }).setView(config.center, 13);
    // The features come from this site and are drawn without the tiles: a tile server that is
    // down or unreachable (offline) leaves the markers on a plain background, and says so.
    var features = "The " + noun + "s are loading on the map.", tilesFailed = false;
    function say() {
      status.textContent = features + (tilesFailed ? " The background map tiles could not load." : "");
    }
    var tiles = L.tileLayer(config.tiles, { attribution: config.attribution, maxZoom: 19 });
    tiles.on("tileerror", function () {
      if (!tilesFailed) { tilesFailed = true; container.classList.add("map-no-tiles"); say(); }
    });
    tiles.addTo(map);
    say();

    function label(p) {
      var text = p[o.idProp] + " " + p[o.markerProp];
      return symbols && p.condition_label ? text + ", condition " + p.condition_label.toLowerCase() : text;
    }
    function popup(p) {
      var box = document.createElement("div"), link = document.createElement("a");
      link.href = p.url; link.textContent = p[o.idProp] + " " + (p[o.titleProp] || "");
      box.appendChild(link);
      box.appendChild(document.createElement("br"));
      box.appendChild(document.createTextNode(p[o.detailProp] + " — " + (o.statePrefix || "") + p[o.stateProp]));
      return box;
    }
    function marker(p, latlng) {
      var name = label(p), options = { title: name, alt: name, keyboard: true };
      if (symbols) { options.icon = symbolIcon(p.kind, p.condition); }
      return L.marker(latlng, options);
    }

    fetch(config[o.featuresKey], { credentials: "same-origin", headers: { "Accept": "application/geo+json" } })
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
      .then(function (data) {
        var badges = L.layerGroup();
        var layer = L.geoJSON(data, {
          pointToLayer: function (feature, latlng) { return marker(feature.properties, latlng); },
          style: function (feature) {
            var p = feature.properties;
            return { className: "ms4-line kind-" + p.kind + " cond-" + p.condition };
          },
          onEachFeature: function (feature, shape) {
            shape.bindPopup(popup(feature.properties));
            if (symbols && feature.geometry.type === "LineString") {
              // The line's condition, as a badge a keyboard can reach, at its middle.
              var badge = marker(feature.properties, midpoint(feature.geometry.coordinates));
              badge.setIcon(L.divIcon({ className: "ms4-marker ms4-badge", html: symbolHtml("badge", feature.properties.condition), iconSize: [14, 14], iconAnchor: [7, 7] }));
              badge.bindPopup(popup(feature.properties));
              badges.addLayer(badge);
            }
          }
        }).addTo(map);
        badges.addTo(map);
        if (data.features.length) { map.fitBounds(layer.getBounds(), { maxZoom: Number(o.maxZoom), padding: [20, 20] }); }
        features = data.features.length + " " + noun + "(s) on the map; the table below lists them.";
        say();
      })
      .catch(function () { features = "The " + noun + "s could not be loaded on the map; the table below lists them."; say(); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-feature-map]").forEach(start);
  });
})();
