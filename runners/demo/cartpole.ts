import { prng } from './prng';

// The classic cart-pole (Barto, Sutton and Anderson 1983), stepped at the frame rate of the cameras.
const GRAVITY = 9.8;
const CART_MASS = 1.0;
const POLE_MASS = 0.1;
const HALF_POLE = 0.5;
const FORCE_LIMIT = 10;
export const FPS = 25;
const TAU = 1 / FPS;
export const X_LIMIT = 2.4;
export const THETA_LIMIT = (12 * Math.PI) / 180;

export interface State {
  x: number;
  v: number;
  theta: number;
  omega: number;
}

/** A policy version: a linear controller force = k · state, clipped. */
export interface Gains {
  x: number;
  v: number;
  theta: number;
  omega: number;
}

export interface Episode {
  seed: number;
  states: State[];
  /** Steps survived before the pole fell or the cart left the track, or the full length. */
  steps: number;
  success: boolean;
  fell: boolean;
  return: number;
}

export function step(s: State, force: number): State {
  const cos = Math.cos(s.theta);
  const sin = Math.sin(s.theta);
  const total = CART_MASS + POLE_MASS;
  const temp = (force + POLE_MASS * HALF_POLE * s.omega * s.omega * sin) / total;
  const alpha = (GRAVITY * sin - cos * temp) / (HALF_POLE * (4 / 3 - (POLE_MASS * cos * cos) / total));
  const accel = temp - (POLE_MASS * HALF_POLE * alpha * cos) / total;
  return { x: s.x + TAU * s.v, v: s.v + TAU * accel, theta: s.theta + TAU * s.omega, omega: s.omega + TAU * alpha };
}

/** Runs `gains` on `seed` for at most `length` steps; gusts of wind make weak controllers fail. */
export function runEpisode(gains: Gains, seed: number, length: number): Episode {
  const random = prng(seed);
  let state: State = { x: (random() - 0.5) * 0.4, v: (random() - 0.5) * 0.4, theta: (random() - 0.5) * 0.3, omega: (random() - 0.5) * 0.4 };
  const states = [state];
  let fell = false;
  while (states.length <= length) {
    const gust = random() < 0.05 ? (random() - 0.5) * 60 : 0;
    const control = gains.x * state.x + gains.v * state.v + gains.theta * state.theta + gains.omega * state.omega;
    state = step(state, Math.max(-FORCE_LIMIT, Math.min(FORCE_LIMIT, control)) + gust);
    states.push(state);
    if (Math.abs(state.theta) > THETA_LIMIT) {
      fell = true;
      break;
    }
    if (Math.abs(state.x) > X_LIMIT) break;
  }
  const steps = states.length - 1;
  return { seed, states, steps, success: steps >= length, fell, return: steps };
}
