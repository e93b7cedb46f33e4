# usage: ruby graph.rb MANIFEST [NODENAME]
# Compiles MANIFEST as ../shared/oracle/puppet-compile.rb does, then builds
# the relationship graph Puppet's agent orders resources by, and prints one
# JSON line: {"ok":true}, or the compile error, or the dependency cycles the
# agent would refuse to apply.
require 'puppet'
require 'json'
manifest, nodename = ARGV[0], (ARGV[1] || 'web01.example.com')
code = File.read(manifest)
code += "\nnode default { include main }\n" if code !~ /^\s*node\s/ && code =~ /^\s*class\s+main\b/
Puppet.initialize_settings(['--strict_variables', '--strict=error'])
Puppet[:code] = code
Puppet[:modulepath] = ENV['ORACLE_MODULEPATH'] || '/nonexistent'
facts = Puppet::Node::Facts.new(nodename, {'osfamily' => 'Debian', 'os' => {'family' => 'Debian'},
  'hostname' => nodename.split('.').first, 'fqdn' => nodename})
node = Puppet::Node.new(nodename, facts: facts)
node.merge(facts.values)
begin
  catalog = Puppet::Parser::Compiler.compile(node).to_ral
  catalog.finalize
  graph = Puppet::Graph::RelationshipGraph.new(Puppet::Graph::SequentialPrioritizer.new)
  graph.populate_from(catalog)
  cycles = graph.find_cycles_in_graph
  if cycles.empty?
    puts JSON.generate({ok: true})
  else
    shown = cycles.map { |c| graph.paths_in_cycle(c).map { |p| '(' + p.map(&:to_s).join(' => ') + ')' }.join(' ') }
    puts JSON.generate({ok: false, error: "Found #{cycles.length} dependency cycle(s): #{shown.join(' ')}"})
  end
rescue Exception => e
  puts JSON.generate({ok: false, error: e.class.name + ': ' + e.message[0, 300]})
end
