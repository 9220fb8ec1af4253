import { useEffect, useRef, type RefObject } from 'react';

/**
 * True while the component is mounted, for answers that arrive after a dialog closed. Set in the effect as
 * well as at creation: in development StrictMode mounts, unmounts and mounts again, and a flag cleared by the
 * first unmount would otherwise stay false and drop every answer.
 */
export function useMounted(): RefObject<boolean> {
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return mounted;
}
