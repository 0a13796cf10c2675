/**
 * The exact search for a role-valid game of three teams or more among tickets: some of the
 * tickets seat every team with one player per role, a party's players on one team in different
 * roles they accept. It is {@link RoleGameSearch}'s `"choose"` mode for shapes without sides,
 * where teams are interchangeable: a state is the multiset of the teams' filled roles (sorted
 * team masks, packed in one number), so there are at most C(2^k + T − 1, T) of them
 * ({@link teamRoleStates}); each ticket added costs O(states · T · its party masks).
 */
import type { RoleTable } from "./role-rules.js";
import type { Ticket } from "./types.js";

/** How a state was reached: the ticket placed, after the previous step. */
interface Step {
  readonly ticket: Ticket;
  readonly prev: Step | undefined;
}

/** Most states a search may keep: the two-team search's bound for teams of 8 (4^8). */
export const MAX_TEAM_ROLE_STATES = 65_536;

/** The states a search over `teams` teams of `k` roles can reach at most: multisets of T team masks. */
export function teamRoleStates(k: number, teams: number): number {
  // C(2^k + T − 1, T), in floating point (only compared with a bound).
  const n = 2 ** k + teams - 1;
  let c = 1;
  for (let i = 1; i <= teams; i++) c = (c * (n - teams + i)) / i;
  return Math.round(c);
}

export class TeamsRoleSearch {
  private states = new Map<number, Step | undefined>([[0, undefined]]);
  private goal: Step | undefined;
  /** 2^k: one team's place in a packed state. */
  private readonly base: number;
  private readonly goalState: number;
  /** Scratch: the team masks of the state being extended. */
  private readonly masks: number[];

  constructor(
    private readonly table: RoleTable,
    private readonly teams: number,
  ) {
    this.base = 2 ** table.k;
    this.masks = new Array<number>(teams).fill(0);
    let goal = 0;
    for (let t = 0; t < teams; t++) goal = goal * this.base + table.full;
    this.goalState = goal;
  }

  /** True once the tickets added hold a complete role-valid game. */
  get found(): boolean {
    return this.goal !== undefined;
  }

  add(ticket: Ticket): void {
    if (this.goal) return;
    const partyMasks = this.table.partyMasks(ticket);
    for (const [state, step] of [...this.states]) {
      this.unpack(state);
      for (let t = 0; t < this.teams; t++) {
        const team = this.masks[t];
        // Teams with the same roles filled are interchangeable: try the first of them only.
        if (t > 0 && this.masks[t - 1] === team) continue;
        for (const m of partyMasks) {
          if (team & m) continue;
          this.masks[t] = team | m;
          const next = this.pack();
          this.masks[t] = team;
          if (this.states.has(next)) continue;
          const reached = { ticket, prev: step };
          this.states.set(next, reached);
          if (next === this.goalState) {
            this.goal = reached;
            return;
          }
        }
      }
    }
  }

  /** The tickets of the game found, in the order they were added (each with no team: teams are interchangeable). */
  game(): Array<{ ticket: Ticket }> {
    const out: Array<{ ticket: Ticket }> = [];
    for (let s = this.goal; s; s = s.prev) out.push({ ticket: s.ticket });
    return out.reverse();
  }

  /** The team masks of a packed state into {@link masks}, in the packed (sorted) order. */
  private unpack(state: number): void {
    for (let t = this.teams - 1; t >= 0; t--) {
      this.masks[t] = state % this.base;
      state = Math.floor(state / this.base);
    }
  }

  /** {@link masks} sorted, packed into one number (the state's canonical form). */
  private pack(): number {
    const sorted = [...this.masks].sort((a, b) => a - b);
    let state = 0;
    for (const m of sorted) state = state * this.base + m;
    return state;
  }
}
