import { useEffect, useState } from "react";
import { useHydrated } from "~/components/ui/form-parts";

/**
 * How far through the article the reader is, 0 to 100: updated once per frame while
 * scrolling. Without JavaScript it cannot move, so it is not shown.
 */
export function ReadingProgress({ targetId }: { targetId: string }) {
  const hydrated = useHydrated();
  const [percent, setPercent] = useState(0);

  useEffect(() => {
    let frame = 0;
    const measure = () => {
      frame = 0;
      const target = document.getElementById(targetId);
      if (!target) return;
      const rect = target.getBoundingClientRect();
      // 0 when the article's top reaches the top of the screen, 100 when its end is in view.
      const distance = rect.height - window.innerHeight;
      const read = distance <= 0 ? (rect.top <= 0 ? 1 : 0) : -rect.top / distance;
      setPercent(Math.round(Math.min(1, Math.max(0, read)) * 100));
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    measure();
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
    };
  }, [targetId]);

  return (
    <div
      className="reading-progress"
      role="progressbar"
      aria-label="Reading progress"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      hidden={!hydrated}
    >
      <span className="reading-progress-fill" style={{ transform: `scaleX(${percent / 100})` }} />
    </div>
  );
}
