# Options that name types are type matches: a data type, a resource type,
# a defined type of the manifest.
define app::site { }
$value = 'x'
case $value {
  Integer:   { notify { 'integer': } }
  File:      { notify { 'file': } }
  App::Site: { notify { 'site': } }
  String:    { notify { 'string': } }
  default:   { }
}
