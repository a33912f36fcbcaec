"use client";

import { type RefObject, useEffect, useState } from "react";

/**
 * Becomes true (and stays true) once the element comes within `margin` of its scroll
 * container's visible area, so turns far up the history load their events only when reached.
 */
export function useNearViewport(
  element: RefObject<HTMLElement | null>,
  root: RefObject<HTMLElement | null>,
  margin = "600px",
): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    if (near) return;
    const target = element.current;
    if (!target || typeof IntersectionObserver === "undefined") {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { root: root.current, rootMargin: margin },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [element, root, margin, near]);
  return near;
}
