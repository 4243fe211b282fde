/* Loaded before Redoc on /api/redoc/ (templates/api/redoc.html). Redoc's sidebar footer shows
   its maker's logo from their CDN: nothing on this site comes from another host (the content
   security policy's img-src refuses it, and every refusal is logged as an error), so an image
   whose address is on another host is hidden and never asked for. React gives an image its
   address twice, as an attribute and then as the src property: both ways are watched. */
(function () {
  "use strict";
  function foreign(value) {
    try {
      var url = new URL(String(value), document.baseURI);
      return /^https?:$/.test(url.protocol) && url.origin !== window.location.origin;
    } catch (e) {
      return false;
    }
  }
  var setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    if (this instanceof HTMLImageElement && String(name).toLowerCase() === "src" && foreign(value)) {
      this.hidden = true;
      return undefined;
    }
    return setAttribute.call(this, name, value);
  };
  var src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
  Object.defineProperty(HTMLImageElement.prototype, "src", {
    configurable: true,
    enumerable: src.enumerable,
    get: src.get,
    set: function (value) {
      if (foreign(value)) {
        this.hidden = true;
        return;
      }
      src.set.call(this, value);
    }
  });
})();
