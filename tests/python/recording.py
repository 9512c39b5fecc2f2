"""A Gymnasium wrapper for the tests of RL libraries driving knightgym's env: it records
whether each action was legal in the observation it answered, and each game's return
beside the state's own returns, into lists the test holds."""

import gymnasium


class Recorder(gymnasium.Wrapper):
    """Appends (legal, info["illegal_action"]) to `steps` at every step, and (episode
    return, the state's return for the learner's seat) to `endings` at each game's end."""

    def __init__(self, env, steps, endings):
        super().__init__(env)
        self.steps, self.endings = steps, endings

    def reset(self, **kwargs):
        obs, info = self.env.reset(**kwargs)
        self._mask, self._return = obs["action_mask"], 0.0
        return obs, info

    def step(self, action):
        legal = bool(self._mask[action])
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.steps.append((legal, info["illegal_action"]))
        self._mask, self._return = obs["action_mask"], self._return + reward
        if terminated or truncated:
            game = self.env.unwrapped
            self.endings.append((self._return, game.state().returns()[game.seat]))
        return obs, reward, terminated, truncated, info
