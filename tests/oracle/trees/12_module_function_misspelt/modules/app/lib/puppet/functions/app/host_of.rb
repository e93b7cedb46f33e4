# A module function in Ruby.
Puppet::Functions.create_function(:'app::host_of') do
  def host_of(name)
    "#{name}.example.com"
  end
end
