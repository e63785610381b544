import type { Gains } from './cartpole';

/** The scripted agent's successive policy versions: each one a better-tuned controller. */
export const VERSIONS: { version: string; gains: Gains; note: string }[] = [
  { version: 'v001', gains: { x: 0.5, v: 1.2, theta: 24, omega: 3 }, note: 'proportional on the pole angle, a little damping' },
  { version: 'v002', gains: { x: 0.3, v: 1.0, theta: 28, omega: 4 }, note: 'more damping on the angular velocity' },
  { version: 'v003', gains: { x: 0.6, v: 1.6, theta: 36, omega: 6 }, note: 'stiffer on the angle, keeps the cart near the centre' },
  { version: 'v004', gains: { x: 1.0, v: 2.2, theta: 42, omega: 8 }, note: 'tuned on the falls seen in development' },
];

export function policySource(version: string, gains: Gains, note: string): string {
  return `# ${version}: ${note}
import numpy as np

K = np.array([${gains.x}, ${gains.v}, ${gains.theta}, ${gains.omega}])


def act(obs):
    """Force on the cart from (x, v, theta, omega)."""
    return float(np.clip(K @ obs, -10.0, 10.0))
`;
}
