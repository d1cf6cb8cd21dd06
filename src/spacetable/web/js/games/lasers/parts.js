// A laser game's room, replay and referee sandbox (the interface of games/index.js): the
// same modules for every game of the family, each loaded when asked, with the game's own
// ruleset, unit of cargo and room options.

/**
 * The parts of the game of `ruleset`'s interface that the laser games share: `room` plays
 * with `unit` ("rocks" or "cubes") and `roomOptions` (startLaserRoom's: {races}).
 */
export function laserParts(ruleset, unit, roomOptions = {}) {
  return {
    /** Play in the room page (ctx {roomId, params, game, describe}). */
    async room(ctx) {
      const { startLaserRoom } = await import("./room.js");
      return startLaserRoom({ ...ctx, unit }, roomOptions);
    },
    /** Show the stored match `match` on the replay page. */
    async replay(ctx, match) {
      const { showLaserReplay } = await import("./replay.js");
      return showLaserReplay(match);
    },
    /** The referee sandbox, with this game's cards (ctx: {onOtherGame(data, name)}). */
    async referee(ctx) {
      const { startLaserReferee } = await import("./referee.js");
      return startLaserReferee({ ...ctx, ruleset });
    },
  };
}
