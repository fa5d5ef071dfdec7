X = undefined_thing + 1
