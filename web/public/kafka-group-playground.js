// <kafka-group-playground scenario="leave-while-stable" views="sm,steps" height="640" autoplay moment="key" lang="zh">
// (`step="12"` opens at a step; `moment="key"` at the scenario's key moment.)
// <kafka-group-playground mode="assign" strategy="cooperative-sticky" group="topics: orders=6&#10;c1: orders">
// embeds the assign widget instead, on that group (lines separated by newlines).
// Embeds a live, pre-loaded scenario of the Kafka group coordinator playground in any page: an
// iframe of the playground's chrome-less embed mode (no threads, no special headers needed).
// Load this script from where the playground is served; the iframe points next to it.
(() => {
  const base = new URL('./', document.currentScript ? document.currentScript.src : location.href);
  class KafkaGroupPlayground extends HTMLElement {
    static get observedAttributes() { return ['scenario', 'views', 'height', 'autoplay', 'step', 'moment', 'lang', 'mode', 'strategy', 'group']; }
    connectedCallback() { this.render(); }
    attributeChangedCallback() { if (this.isConnected) this.render(); }
    render() {
      const url = new URL('index.html', base);
      url.searchParams.set('embed', '1');
      if (this.getAttribute('mode') === 'assign') url.searchParams.set('mode', 'assign');
      else url.searchParams.set('scenario', this.getAttribute('scenario') || 'normal-join');
      for (const name of ['views', 'step', 'moment', 'lang', 'strategy', 'group']) {
        const value = this.getAttribute(name);
        if (value) url.searchParams.set(name, value);
      }
      if (this.hasAttribute('autoplay')) url.searchParams.set('autoplay', '1');
      // No height (or "auto"): the frame takes the height its content reports. Either way at
      // most MAX_HEIGHT px (a height of "1e9" once made a frame of a billion pixels), and a
      // fixed height at least MIN_HEIGHT.
      const MIN_HEIGHT = 120;
      const MAX_HEIGHT = 2000;
      const fixed = Number(this.getAttribute('height'));
      this.auto = !(fixed > 0);
      const height = this.auto ? 600 : Math.min(Math.max(fixed, MIN_HEIGHT), MAX_HEIGHT);
      // The page inside then lays itself out for a frame of its own height: nothing scrolls
      // inside it, so the wheel scrolls the page around it.
      if (this.auto) url.searchParams.set('height', 'auto');
      let frame = this.querySelector('iframe');
      if (!frame) {
        frame = document.createElement('iframe');
        frame.setAttribute('loading', 'lazy');
        frame.style.cssText = 'width:100%;border:1px solid #d0d5dd;border-radius:6px;box-sizing:content-box;';
        this.replaceChildren(frame);
        window.addEventListener('message', (event) => {
          const data = event.data;
          if (!this.auto || event.source !== frame.contentWindow || !data || data.type !== 'kafka-group-playground:height') return;
          if (typeof data.height !== 'number' || !(data.height > 0)) return;
          this.reported = Math.min(Math.ceil(data.height), MAX_HEIGHT);
          frame.style.height = `${this.reported}px`;
        });
      }
      // The title names the scenario in at most 100 characters (an attribute can be any length).
      const name = url.searchParams.get('scenario') || '';
      const shown = name.length > 100 ? `${name.slice(0, 100)}…` : name;
      frame.title = url.searchParams.get('mode') === 'assign' ? 'Kafka partition assignors' : `Kafka consumer group: ${shown}`;
      frame.style.height = `${this.auto && this.reported ? this.reported : height}px`;
      if (frame.src !== url.toString()) frame.src = url.toString();
    }
  }
  if (!customElements.get('kafka-group-playground')) customElements.define('kafka-group-playground', KafkaGroupPlayground);
})();
