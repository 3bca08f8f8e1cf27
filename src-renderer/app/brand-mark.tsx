/** Skilltray's mark: the tray glyph (an open tray under a check) on the app icon's tile, drawn inline so it is sharp at any size. */
import { useId } from 'react';

export function BrandMark({ className = 'brand-mark' }: { className?: string }) {
  const gradient = useId();
  return (
    <svg className={className} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#4f6ef7" />
          <stop offset="1" stopColor="#6d3ef0" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={`url(#${gradient})`} />
      <g fill="none" stroke="#fff" strokeWidth="2.8" strokeLinecap="round" strokeLinejoin="round" transform="translate(4 4.4) scale(0.75)">
        <path d="M10 9.5 l4 4 l8.5 -8.5" />
        <path d="M3.5 17 h7 a5.5 5.5 0 0 0 11 0 h7" />
        <path d="M3.5 17 v7.5 a3 3 0 0 0 3 3 h19 a3 3 0 0 0 3 -3 v-7.5" />
      </g>
    </svg>
  );
}
