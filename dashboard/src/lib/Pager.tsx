import { Link } from 'react-router';

interface PagerProps {
  /** What the pages are of, for screen readers ("Pages of feedback"). */
  label: string;
  page: number;
  pageSize: number;
  /** Rows on this page. */
  shown: number;
  total: number;
  /** The address of page `n` (1 is the first). */
  href: (n: number) => string;
  previous?: string;
  next?: string;
}

/** Where this page stands in the list, with links to the pages either side of it (bookmarkable addresses). */
export function Pager({
  label,
  page,
  pageSize,
  shown,
  total,
  href,
  previous = 'Previous page',
  next = 'Next page',
}: PagerProps) {
  return (
    <nav className="pager" aria-label={label}>
      <p>
        {(page - 1) * pageSize + 1}–{(page - 1) * pageSize + shown} of {total}
      </p>
      {page > 1 && (
        <Link to={href(page - 1)} rel="prev">
          {previous}
        </Link>
      )}
      {page * pageSize < total && (
        <Link to={href(page + 1)} rel="next">
          {next}
        </Link>
      )}
    </nav>
  );
}
