"""Many tables in compiled calls: the vector env, the learner env, self-play, the arena."""
