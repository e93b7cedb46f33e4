# A gem installed for one interpreter: the same gem may be installed for
# several, so the interpreter is part of what identifies the resource. A
# title `3.1/bundler` gives both; a plain title is the gem's name.
Puppet::Type.newtype(:interpreter_gem) do
  def self.title_patterns
    [
      [%r{\A([^/]+)/(.+)\z}, [[:interpreter], [:name]]],
      [%r{\A(.+)\z}, [[:name]]],
    ]
  end

  newparam(:name) do
    isnamevar
  end

  newparam(:interpreter) do
    isnamevar
  end
end
