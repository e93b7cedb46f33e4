# A type's access called to make a value, anywhere an expression goes, and
# a type alias written as a type followed by its body.
notice(Integer[0, 10]('5'))
$values = [Optional[String]('a'), { 'n' => Init[Integer, 16]('100') }]
if Integer[0, 10]('5') == 5 { notice("${String[1]('x')}") }
type Point = Object { attributes => { x => Integer, y => Integer } }
type Point3 = Point { attributes => { z => Integer } }
notice(Point3(1, 2, 3))
