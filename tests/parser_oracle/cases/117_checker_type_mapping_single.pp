type Runtime["ruby", "Foo"] = [/a/, "b"]
