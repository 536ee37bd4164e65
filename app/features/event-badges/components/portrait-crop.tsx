import { useCallback, useEffect, useImperativeHandle, useRef, useState } from "react";
import { BROWSER_MAX_PIXELS, BROWSER_PIXELS_MESSAGE, PORTRAIT_CROP_FAILED_MESSAGE, PORTRAIT_FAILED_MESSAGE, ZOOM } from "../portrait";
import { clampZoom, cropRect, initialCrop, panCrop, zoomCrop, type Crop } from "./crop-math";

/** What the order form asks of the crop tool when it sends the form. */
export type PortraitCropApi = {
  /**
   * The cropped 720x720 JPEG: the one made with 'Use this portrait', or one made from the crop
   * as it stands (once the picture has loaded). Null when the picture could not be read: the
   * original is never sent in its place.
   */
  blob(): Promise<Blob | null>;
};

type Props = {
  file: File;
  apiRef: React.Ref<PortraitCropApi>;
  /** A cropped PNG is ready (or no longer matches the crop, with null). */
  onReady(blob: Blob | null): void;
  /** `fatal`: the picture itself cannot be used, so the choice is dropped. */
  onError(message: string, fatal: boolean): void;
  onRemove(): void;
};

type Source = { image: CanvasImageSource; width: number; height: number };

/** Side of the cropped portrait sent to the server (the server keeps 720x720). */
const OUTPUT = 720;
/** The cropped picture is sent as a JPEG (every browser makes one): about 100-200 kB, whatever the original weighed. */
const PORTRAIT_UPLOAD_TYPE = "image/jpeg";
const JPEG_QUALITY = 0.92;
/** Canvas pixels of the on-screen crop view: 2x its CSS size, sharp on phones. */
const VIEW = 560;
/** Very large photos are scaled down once, so dragging stays smooth. */
const MAX_SOURCE_SIDE = 2560;

class TooManyPixels extends Error {}

/**
 * Reads any picture the browser can decode (HEIC too, where the browser can), turned upright by
 * its EXIF orientation as browsers draw it. Its size is read before its pixels are decoded: more
 * than 50 megapixels is refused.
 */
async function loadSource(file: File): Promise<Source> {
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    img.decoding = "async";
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => reject(new Error("not an image the browser can read"));
      img.src = url;
    });
    const { naturalWidth: w, naturalHeight: h } = img;
    if (!w || !h) throw new Error("empty image");
    if (w * h > BROWSER_MAX_PIXELS) throw new TooManyPixels();
    await img.decode();
    const scale = Math.min(1, MAX_SOURCE_SIDE / Math.max(w, h));
    if (scale === 1) return { image: img, width: w, height: h };
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(w * scale));
    canvas.height = Math.max(1, Math.round(h * scale));
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("no 2d context");
    ctx.imageSmoothingQuality = "high";
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return { image: canvas, width: canvas.width, height: canvas.height };
  } finally {
    // Safe once decoded (or failed): the element keeps its pixels.
    URL.revokeObjectURL(url);
  }
}

/** The crop as the 720x720 JPEG the server stores (it re-encodes it, checked, as a PNG). */
function renderPortrait(source: Source, crop: Crop): Promise<Blob> {
  const canvas = document.createElement("canvas");
  canvas.width = OUTPUT;
  canvas.height = OUTPUT;
  const ctx = canvas.getContext("2d");
  if (!ctx) return Promise.reject(new Error("no 2d context"));
  ctx.imageSmoothingQuality = "high";
  const r = cropRect(source.width, source.height, crop);
  // A JPEG has no transparency: a see-through background becomes white, not black.
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, OUTPUT, OUTPUT);
  ctx.drawImage(source.image, r.x, r.y, r.size, r.size, 0, 0, OUTPUT, OUTPUT);
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b && b.size > 0 ? resolve(b) : reject(new Error("toBlob failed"))), PORTRAIT_UPLOAD_TYPE, JPEG_QUALITY),
  );
}

/**
 * The round 1:1 crop: the picture in a square canvas under a circular mask, dragged with a
 * mouse, finger or the arrow keys, zoomed with a slider. Loaded only once a file is chosen.
 */
export default function PortraitCrop({ file, apiRef, onReady, onError, onRemove }: Props) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [source, setSource] = useState<Source | null>(null);
  const [crop, setCrop] = useState<Crop>({ cx: 0, cy: 0, zoom: ZOOM.initial });
  const [ready, setReady] = useState<{ blob: Blob; url: string } | null>(null);
  const [working, setWorking] = useState(false);
  const drag = useRef<{ id: number; x: number; y: number } | null>(null);

  // The picture as it loads: the form waits for it when it is sent before it has.
  const loading = useRef<Promise<Source | null>>(Promise.resolve(null));
  useEffect(() => {
    let live = true;
    loading.current = loadSource(file).then(
      (s) => {
        if (live) {
          setSource(s);
          setCrop(initialCrop(s.width, s.height));
        }
        return s;
      },
      (e) => {
        if (live) onError(e instanceof TooManyPixels ? BROWSER_PIXELS_MESSAGE : PORTRAIT_FAILED_MESSAGE, true);
        return null;
      },
    );
    return () => {
      live = false;
    };
    // A new file mounts a new crop tool (the form keys it), so this runs once per file.
  }, [file]);

  useEffect(() => () => void (ready && URL.revokeObjectURL(ready.url)), [ready]);

  useEffect(() => {
    const ctx = canvasRef.current?.getContext("2d");
    if (!ctx || !source) return;
    const r = cropRect(source.width, source.height, crop);
    ctx.clearRect(0, 0, VIEW, VIEW);
    ctx.imageSmoothingQuality = "high";
    ctx.drawImage(source.image, r.x, r.y, r.size, r.size, 0, 0, VIEW, VIEW);
    // Dim everything outside the circle the badge will show.
    ctx.beginPath();
    ctx.rect(0, 0, VIEW, VIEW);
    ctx.arc(VIEW / 2, VIEW / 2, VIEW / 2 - 4, 0, Math.PI * 2, true);
    ctx.fillStyle = "rgba(11, 39, 64, 0.6)";
    ctx.fill("evenodd");
    ctx.beginPath();
    ctx.arc(VIEW / 2, VIEW / 2, VIEW / 2 - 4, 0, Math.PI * 2);
    ctx.lineWidth = 4;
    ctx.strokeStyle = "#ffffff";
    ctx.stroke();
    // `ready` too: leaving the 'Portrait ready' view mounts a fresh, blank canvas.
  }, [source, crop, ready]);

  const change = useCallback(
    (next: (c: Crop, s: Source) => Crop) => {
      if (!source) return;
      setCrop((c) => next(c, source));
      if (ready) {
        setReady(null);
        onReady(null);
      }
    },
    [source, ready, onReady],
  );

  useImperativeHandle(
    apiRef,
    () => ({
      blob: async () => {
        if (ready) return ready.blob;
        if (source) return renderPortrait(source, crop);
        const loaded = await loading.current;
        return loaded ? renderPortrait(loaded, initialCrop(loaded.width, loaded.height)) : null;
      },
    }),
    [ready, source, crop],
  );

  async function use() {
    if (!source) return;
    setWorking(true);
    try {
      const blob = await renderPortrait(source, crop);
      setReady({ blob, url: URL.createObjectURL(blob) });
      onReady(blob);
    } catch {
      onError(PORTRAIT_CROP_FAILED_MESSAGE, false);
    } finally {
      setWorking(false);
    }
  }

  const viewSize = () => canvasRef.current?.getBoundingClientRect().width || VIEW / 2;

  function onPointerDown(e: React.PointerEvent<HTMLCanvasElement>) {
    if (!source || (e.pointerType === "mouse" && e.button !== 0)) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    e.currentTarget.focus({ preventScroll: true });
    drag.current = { id: e.pointerId, x: e.clientX, y: e.clientY };
  }
  function onPointerMove(e: React.PointerEvent<HTMLCanvasElement>) {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    d.x = e.clientX;
    d.y = e.clientY;
    const size = viewSize();
    change((c, s) => panCrop(s.width, s.height, c, dx, dy, size));
  }
  function endDrag(e: React.PointerEvent<HTMLCanvasElement>) {
    if (drag.current?.id === e.pointerId) drag.current = null;
  }
  function onKeyDown(e: React.KeyboardEvent<HTMLCanvasElement>) {
    // The keys move the picture, as dragging does.
    const step = e.shiftKey ? 40 : 8;
    const move: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const m = move[e.key];
    if (!m) return;
    e.preventDefault();
    const size = viewSize();
    change((c, s) => panCrop(s.width, s.height, c, m[0], m[1], size));
  }

  if (ready) {
    return (
      <div className="portrait-ready">
        <img src={ready.url} width={96} height={96} alt="Your portrait, cropped for the badge" className="portrait-preview" />
        <div>
          <p className="portrait-ready-note">
            <strong>Portrait ready</strong>
            <span>It will be sent with your confirmation.</span>
          </p>
          <div className="portrait-actions">
            <button
              type="button"
              className="button-ghost button-small"
              onClick={() => {
                setReady(null);
                onReady(null);
              }}
            >
              Adjust crop
            </button>
            <button type="button" className="button-ghost button-small" onClick={onRemove}>
              Remove portrait
            </button>
          </div>
        </div>
      </div>
    );
  }

  return (
    <div className="portrait-crop">
      <div className="portrait-stage">
        <canvas
          ref={canvasRef}
          width={VIEW}
          height={VIEW}
          tabIndex={0}
          role="img"
          aria-label="Portrait crop. Drag the picture, or use the arrow keys, to place your face in the circle."
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={endDrag}
          onPointerCancel={endDrag}
          onKeyDown={onKeyDown}
          className={source ? "portrait-canvas" : "portrait-canvas is-loading"}
        />
        {source ? null : <p className="portrait-loading">Loading your picture…</p>}
      </div>
      <div className="portrait-controls">
        <label htmlFor="portrait-zoom">Zoom</label>
        <input
          id="portrait-zoom"
          type="range"
          min={ZOOM.min}
          max={ZOOM.max}
          step={ZOOM.step}
          value={crop.zoom}
          disabled={!source}
          aria-valuetext={`${Math.round(crop.zoom * 100)}%`}
          onChange={(e) => {
            const zoom = clampZoom(Number(e.currentTarget.value));
            change((c, s) => zoomCrop(s.width, s.height, c, zoom));
          }}
        />
        <p className="field-hint">Drag the picture to move it; slide to zoom.</p>
        <div className="portrait-actions">
          <button type="button" className="button-small" onClick={use} disabled={!source || working}>
            Use this portrait
          </button>
          <button type="button" className="button-ghost button-small" onClick={onRemove}>
            Remove portrait
          </button>
        </div>
      </div>
    </div>
  );
}
