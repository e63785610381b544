import type { State } from './cartpole';
import { THETA_LIMIT, X_LIMIT } from './cartpole';
import { encodePng } from './png';
import { Raster, type Rgb } from './raster';

export const CAMERAS = ['head', 'left_wrist', 'right_wrist'] as const;
export type Camera = (typeof CAMERAS)[number];
export const FRAME_SIZE = 84;

const SKY: Rgb = [28, 32, 40];
const TRACK: Rgb = [90, 96, 108];
const CART: Rgb = [91, 156, 240];
const POLE: Rgb = [216, 160, 58];
const DANGER: Rgb = [229, 83, 75];

/** The three camera views of one state: side view, a view that follows the cart, and the pole's angle close up. */
export function renderFrame(state: State, camera: Camera): Buffer {
  const c = new Raster(FRAME_SIZE, FRAME_SIZE, SKY);
  const tilt = Math.abs(state.theta) / THETA_LIMIT;
  const pole: Rgb = tilt > 0.75 ? DANGER : POLE;
  if (camera === 'head') {
    const scale = FRAME_SIZE / (2 * X_LIMIT + 0.8);
    const cx = FRAME_SIZE / 2 + state.x * scale;
    c.rect(0, 62, FRAME_SIZE, 2, TRACK);
    c.rect(cx - 7, 55, 14, 7, CART);
    c.line(cx, 55, cx + Math.sin(state.theta) * 30, 55 - Math.cos(state.theta) * 30, 3, pole);
  } else if (camera === 'left_wrist') {
    const offset = ((state.x * 40) % 12 + 12) % 12;
    for (let x = -offset; x < FRAME_SIZE; x += 12) c.rect(x, 70, 2, 6, TRACK);
    c.rect(22, 50, 40, 18, CART);
    c.line(42, 50, 42 + Math.sin(state.theta) * 60, 50 - Math.cos(state.theta) * 60, 5, pole);
  } else {
    c.disc(42, 70, 5, CART);
    c.line(42, 70, 42 + Math.sin(state.theta) * 70, 70 - Math.cos(state.theta) * 70, 4, pole);
    const mark = Math.sin(THETA_LIMIT) * 60;
    c.line(42 - mark, 10, 42 - mark, 16, 1, DANGER);
    c.line(42 + mark, 10, 42 + mark, 16, 1, DANGER);
  }
  return encodePng(FRAME_SIZE, FRAME_SIZE, c.pixels);
}
