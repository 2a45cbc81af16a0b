// libyaml's event API, imported into Swift by the CYaml module.
#include <yaml.h>
