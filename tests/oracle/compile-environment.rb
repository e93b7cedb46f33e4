# usage: ruby compile-environment.rb ENVIRONMENT_DIR [NODENAME]
# Compiles a whole environment with Puppet's own compiler, as a server
# would: its manifests/site.pp, its modules/ and its Hiera layers (the
# environment's hiera.yaml and data, and each module's), with strict
# variables and no global Hiera data. Prints one JSON line, in the form
# ../../../shared/oracle/puppet-compile.rb prints: {"ok":true,...} or
# {"ok":false,"error":"..."}.
require 'puppet'
require 'json'
require 'tmpdir'
envdir, nodename = File.expand_path(ARGV[0]), (ARGV[1] || 'web01.example.com')
Dir.mktmpdir do |confdir|
  File.write(File.join(confdir, 'hiera.yaml'), "---\nversion: 5\nhierarchy: []\n")
  Puppet.initialize_settings(['--strict_variables', '--strict=error', '--confdir', confdir,
                              '--environmentpath', File.dirname(envdir), '--codedir', confdir])
  facts = Puppet::Node::Facts.new(nodename, {'osfamily' => 'Debian', 'os' => {'family' => 'Debian'},
    'hostname' => nodename.split('.').first, 'fqdn' => nodename})
  node = Puppet::Node.new(nodename, facts: facts, environment: File.basename(envdir))
  node.merge(facts.values)
  begin
    cat = Puppet::Parser::Compiler.compile(node)
    res = cat.resources.reject { |r| %w[Stage Class Node].include?(r.type) }.map { |r|
      {type: r.type, title: r.title.to_s} }
    puts JSON.generate({ok: true, resources: res})
  rescue Exception => e
    puts JSON.generate({ok: false, error: e.class.name + ': ' + e.message[0, 600]})
  end
end
