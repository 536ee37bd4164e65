import { useEffect, useRef, useState } from "react";
import { YOUTUBE_API } from "./embeds";

/** The parts of the YouTube IFrame Player API this uses. */
type YTPlayer = {
  playVideo(): void;
  pauseVideo(): void;
  setVolume(volume: number): void;
  getIframe(): HTMLIFrameElement;
  destroy(): void;
};
type YTNamespace = {
  Player: new (
    el: HTMLElement,
    opts: {
      videoId: string;
      width: number;
      height: number;
      playerVars: Record<string, string | number>;
      events: { onReady?: (e: { target: YTPlayer }) => void; onStateChange?: (e: { data: number; target: YTPlayer }) => void };
    },
  ) => YTPlayer;
  PlayerState: { PLAYING: number; PAUSED: number; ENDED: number };
};
declare global {
  interface Window {
    YT?: YTNamespace;
    onYouTubeIframeAPIReady?: () => void;
  }
}

export const AUDIO_VOLUME = 70;

let api: Promise<YTNamespace> | undefined;

/** Loads the player API once per visit; later posts with audio reuse it. */
function loadApi(): Promise<YTNamespace> {
  if (window.YT?.Player) return Promise.resolve(window.YT);
  api ??= new Promise<YTNamespace>((resolve, reject) => {
    const before = window.onYouTubeIframeAPIReady;
    window.onYouTubeIframeAPIReady = () => {
      before?.();
      if (window.YT) resolve(window.YT);
    };
    const script = document.createElement("script");
    script.src = YOUTUBE_API;
    script.async = true;
    script.onerror = () => {
      api = undefined;
      script.remove();
      reject(new Error("The audio player could not be loaded."));
    };
    document.head.appendChild(script);
  });
  return api;
}

/**
 * A post's background audio: a YouTube player in a hidden frame, loaded only after the page
 * has loaded. Autoplay is attempted at volume 70 (browsers may refuse it until the reader
 * interacts); the first scroll starts it too, and a floating button plays and pauses.
 */
export default function BackgroundAudio({ videoId }: { videoId: string }) {
  const host = useRef<HTMLDivElement>(null);
  const player = useRef<YTPlayer | null>(null);
  const wanted = useRef(true); // the reader has not paused it: start when ready / on scroll
  const [playing, setPlaying] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let created: YTPlayer | undefined;
    const box = host.current;
    const start = () => {
      loadApi().then(
        (YT) => {
          if (cancelled || !box) return;
          const target = document.createElement("div"); // the API replaces it with its iframe
          box.replaceChildren(target);
          created = new YT.Player(target, {
            videoId,
            width: 200,
            height: 200,
            playerVars: { autoplay: 1, controls: 0, disablekb: 1, loop: 1, playlist: videoId, playsinline: 1, rel: 0 },
            events: {
              onReady: ({ target: p }) => {
                if (cancelled) return;
                player.current = p; // its methods exist from now on
                const frame = p.getIframe();
                frame.setAttribute("tabindex", "-1");
                frame.setAttribute("title", "Background audio");
                p.setVolume(AUDIO_VOLUME);
                if (wanted.current) p.playVideo();
              },
              onStateChange: ({ data }) => {
                if (data === YT.PlayerState.PLAYING) setPlaying(true);
                else if (data === YT.PlayerState.PAUSED || data === YT.PlayerState.ENDED) setPlaying(false);
              },
            },
          });
        },
        () => !cancelled && setFailed(true),
      );
    };
    // The first scroll once the player exists starts it (the first before that is kept waiting).
    const onScroll = () => {
      if (!player.current) return;
      window.removeEventListener("scroll", onScroll);
      if (wanted.current) player.current.playVideo();
    };
    if (document.readyState === "complete") start();
    else window.addEventListener("load", start, { once: true });
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      cancelled = true;
      window.removeEventListener("load", start);
      window.removeEventListener("scroll", onScroll);
      try {
        created?.destroy();
      } catch {
        // A player that never became ready has nothing to tear down.
      }
      player.current = null;
      box?.replaceChildren();
    };
  }, [videoId]);

  function toggle() {
    const p = player.current;
    if (playing) {
      wanted.current = false;
      p?.pauseVideo();
    } else {
      wanted.current = true;
      p?.playVideo();
    }
  }

  return (
    <>
      <div className="audio-frame" ref={host} aria-hidden="true" />
      {failed ? null : (
        <button type="button" className="audio-toggle" onClick={toggle} aria-label={playing ? "Pause background audio" : "Play background audio"}>
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
            {playing ? (
              <path d="M7 5h3v14H7zM14 5h3v14h-3z" fill="currentColor" />
            ) : (
              <path d="M8 5v14l11-7z" fill="currentColor" />
            )}
          </svg>
        </button>
      )}
    </>
  );
}
