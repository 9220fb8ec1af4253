import { useEffect, useState } from 'react';

/** The window's inner width, following resizes. */
export function useWindowWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth || 1280);
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth || 1280);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}
