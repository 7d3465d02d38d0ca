"""Other libraries' APIs: Gymnasium, Stable-Baselines3, RLlib, Ray."""
