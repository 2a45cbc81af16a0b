// libcmark's one-call Markdown-to-HTML API, imported into Swift by the CCmark module.
#include <cmark.h>
