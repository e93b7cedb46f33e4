# nodes: web01.example.com, web02.example.com
class web { package { 'nginx': } }
node 'web01.example.com' { include web }
node 'web02.example.com' { package { 'nginx': } }
