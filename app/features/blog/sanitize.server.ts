import sanitizeHtml from "sanitize-html";
import { VIDEO_FRAME_ORIGINS } from "./components/embeds";

/**
 * The allow-list for post bodies: text structure, links, images and code; the formatting the
 * old posts carry (div and section wrappers, and in `style` only bold, italics, underline,
 * alignment and colour); and YouTube and Vimeo videos, as privacy-friendly players
 * (youtube-nocookie.com, Vimeo with do-not-track) in a sandboxed frame. No script, other style,
 * other frame, event handler or javascript:/data: URL survives. Applied when a post is saved
 * and again when it is shown.
 */
const COLOUR = [/^#[0-9a-f]{3,8}$/i, /^rgba?\(\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*(,\s*(0|1|0?\.\d+)\s*)?\)$/i, /^[a-z]{3,20}$/i];
const STYLES: sanitizeHtml.IOptions["allowedStyles"] = {
  "*": {
    "font-weight": [/^(bold|bolder|normal|[1-9]00)$/i],
    "font-style": [/^(italic|normal|oblique)$/i],
    "text-decoration": [/^(underline|line-through|none)$/i],
    "text-align": [/^(left|right|center|justify|start|end)$/i],
    color: COLOUR,
    "background-color": COLOUR,
  },
};


/** A YouTube or Vimeo address as its privacy-friendly player, or null (any other frame is dropped). */
export function videoPlayerSrc(src: string): string | null {
  let u: URL;
  try {
    u = new URL(src, "https://invalid.invalid");
  } catch {
    return null;
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return null;
  const host = u.hostname.replace(/^www\.|^m\./, "");
  const yt = /^[A-Za-z0-9_-]{6,20}$/;
  let id: string | null = null;
  if (host === "youtube.com" || host === "youtube-nocookie.com") {
    id = /^\/(?:embed|shorts|live)\/([^/?#]+)/.exec(u.pathname)?.[1] ?? (u.pathname === "/watch" ? u.searchParams.get("v") : null);
  } else if (host === "youtu.be") id = u.pathname.slice(1);
  if (id && yt.test(id)) {
    const start = /^\d{1,6}$/.test(u.searchParams.get("start") ?? "") ? `?start=${u.searchParams.get("start")}` : "";
    return `https://www.youtube-nocookie.com/embed/${id}${start}`;
  }
  if (host === "vimeo.com" || host === "player.vimeo.com") {
    const vimeo = /^\/(?:video\/)?(\d{1,12})$/.exec(u.pathname)?.[1];
    if (vimeo) return `https://player.vimeo.com/video/${vimeo}?dnt=1`;
  }
  return null;
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "p", "br", "hr", "h2", "h3", "h4", "blockquote", "ul", "ol", "li",
    "strong", "b", "em", "i", "u", "s", "small", "sub", "sup", "mark", "span", "div", "section",
    "a", "img", "figure", "figcaption", "code", "pre", "table", "thead", "tbody", "tr", "th", "td",
    "iframe",
  ],
  allowedAttributes: {
    "*": ["style"],
    a: ["href", "title", "rel", "target"],
    img: ["src", "alt", "width", "height", "loading"],
    th: ["scope"],
    iframe: ["src", "title", "width", "height", "loading", "allow", "allowfullscreen", "referrerpolicy", "sandbox"],
  },
  allowedStyles: STYLES,
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["https"], iframe: ["https"] },
  allowedIframeHostnames: VIDEO_FRAME_ORIGINS.map((o) => new URL(o).hostname),
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    a: (tagName, attribs) => {
      const external = /^https?:\/\//i.test(attribs.href ?? "");
      return {
        tagName,
        attribs: external ? { ...attribs, target: "_blank", rel: "noopener noreferrer" } : attribs,
      };
    },
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: "lazy" } }),
    iframe: (tagName, attribs) => {
      const src = videoPlayerSrc(attribs.src ?? "");
      const kept: sanitizeHtml.Attributes = src
          ? {
              src,
              title: (attribs.title ?? "").slice(0, 200) || "Video",
              width: /^\d{1,4}$/.test(attribs.width ?? "") ? attribs.width! : "560",
              height: /^\d{1,4}$/.test(attribs.height ?? "") ? attribs.height! : "315",
              loading: "lazy",
              allow: "encrypted-media; picture-in-picture; fullscreen",
              allowfullscreen: "",
              referrerpolicy: "strict-origin-when-cross-origin",
              sandbox: "allow-scripts allow-same-origin allow-presentation allow-popups",
            }
          : {};
      return { tagName, attribs: kept };
    },
    h1: "h2",
  },
  // A frame that is not a YouTube or Vimeo video is dropped whole.
  exclusiveFilter: (frame) => frame.tag === "iframe" && !frame.attribs.src,
};

export function sanitizePostHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
