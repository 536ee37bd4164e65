import { ResponsiveImage } from "~/components/ui/responsive-image";
import { Link } from "react-router";
import { useLite } from "~/components/layout/use-lite";

const ANNOUNCEMENT_SCRIPT = "/js/announcement.js";

type Props = {
  title: string;
  text: string;
  poster: { src: string; width: number; height: number; alt: string };
  to: string;
  delayMs?: number;
};

/**
 * A native modal opened 300 ms after load by a small script of its own (public/js/announcement.js),
 * not by React: the page's framework scripts start only when the reader first uses the page
 * (app/lib/http/first-paint.server.ts), and the announcement must not wait for them, nor start them.
 * The server renders it closed, so without scripts nothing covers the page; showModal() gives
 * focus trapping and Escape for free; 'Maybe Later' closes it as a form of method "dialog".
 * Once closed it stays away for a week on this browser. Lite mode leaves the script out.
 */
export function AnnouncementDialog({ title, text, poster, to, delayMs = 300 }: Props) {
  const lite = useLite();
  return (
    <dialog id="announcement" className="announcement" aria-labelledby="announcement-title" data-title={title} data-delay={delayMs}>
      <div className="announcement-body">
        <ResponsiveImage src={poster.src} width={poster.width} height={poster.height} maxWidth={210} sizes="(min-width: 382px) 210px, 55vw" alt={poster.alt} />
        <div>
          <h2 id="announcement-title">{title}</h2>
          <p>{text}</p>
          <div className="actions">
            <Link to={to} className="button button-lamp">
              View Event Details
            </Link>
            <form method="dialog">
              <button type="submit" className="button-ghost" autoFocus>
                Maybe Later
              </button>
            </form>
          </div>
        </div>
      </div>
      {lite ? null : <script async src={ANNOUNCEMENT_SCRIPT} />}
    </dialog>
  );
}
