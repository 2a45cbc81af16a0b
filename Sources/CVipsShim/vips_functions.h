// Every libvips and glib function the shim calls, each reached through a pointer that
// tomo_vips_library.c looks up when libvips is first needed, not through the dynamic linker
// when tomo starts: with the hundred libraries libvips needs, loading it took 30 ms of every
// run, including the runs that never touch an image (`tomo follow`, a build that finds nothing
// changed).
//
// A function the shim starts calling goes in both lists below: in TOMO_VIPS_FUNCTIONS, so its
// pointer is looked up, and among the #defines, so calls go through the pointer. A libvips
// function missing from the #defines does not link (tomo is not linked with libvips); one
// missing from TOMO_VIPS_FUNCTIONS does not compile. LibraryLoadingTests checks that tomo
// starts without libvips and opens it to make thumbnails.
#ifndef TOMO_VIPS_FUNCTIONS_H
#define TOMO_VIPS_FUNCTIONS_H

#define TOMO_VIPS_FUNCTIONS(X) \
    X(g_free) \
    X(g_log) \
    X(g_log_set_handler) \
    X(g_malloc) \
    X(g_object_ref) \
    X(g_object_unref) \
    X(g_strfreev) \
    X(vips_area_unref) \
    X(vips_array_double_newv) \
    X(vips_autorot) \
    X(vips_cache_set_max) \
    X(vips_cast) \
    X(vips_colourspace) \
    X(vips_concurrency_set) \
    X(vips_copy) \
    X(vips_error) \
    X(vips_error_buffer_copy) \
    X(vips_error_clear) \
    X(vips_extract_area) \
    X(vips_flatten) \
    X(vips_foreign_find_load) \
    X(vips_getpoint) \
    X(vips_image_copy_memory) \
    X(vips_image_get_bands) \
    X(vips_image_get_fields) \
    X(vips_image_get_format) \
    X(vips_image_get_height) \
    X(vips_image_get_orientation_swap) \
    X(vips_image_get_string) \
    X(vips_image_get_typeof) \
    X(vips_image_get_width) \
    X(vips_image_guess_interpretation) \
    X(vips_image_hasalpha) \
    X(vips_image_new_from_file) \
    X(vips_image_new_from_memory) \
    X(vips_image_remove) \
    X(vips_image_write_to_memory) \
    X(vips_init) \
    X(vips_jpegsave_buffer) \
    X(vips_pngsave_buffer) \
    X(vips_text) \
    X(vips_thread_shutdown) \
    X(vips_thumbnail) \
    X(vips_thumbnail_image) \
    X(vips_version) \
    X(vips_version_string) \
    X(vips_webpsave_buffer)

#define TOMO_DECLARE_POINTER(name) extern __typeof__(&name) tomo_vips_pointer_##name;
TOMO_VIPS_FUNCTIONS(TOMO_DECLARE_POINTER)
#undef TOMO_DECLARE_POINTER

// Calls go through the pointers everywhere but where they are looked up.
#ifndef TOMO_VIPS_LOOKING_UP
// glib makes g_object_ref a macro that keeps its argument's type; here it is the function.
#undef g_object_ref
#define g_free (*tomo_vips_pointer_g_free)
#define g_log (*tomo_vips_pointer_g_log)
#define g_log_set_handler (*tomo_vips_pointer_g_log_set_handler)
#define g_malloc (*tomo_vips_pointer_g_malloc)
#define g_object_ref (*tomo_vips_pointer_g_object_ref)
#define g_object_unref (*tomo_vips_pointer_g_object_unref)
#define g_strfreev (*tomo_vips_pointer_g_strfreev)
#define vips_area_unref (*tomo_vips_pointer_vips_area_unref)
#define vips_array_double_newv (*tomo_vips_pointer_vips_array_double_newv)
#define vips_autorot (*tomo_vips_pointer_vips_autorot)
#define vips_cache_set_max (*tomo_vips_pointer_vips_cache_set_max)
#define vips_cast (*tomo_vips_pointer_vips_cast)
#define vips_colourspace (*tomo_vips_pointer_vips_colourspace)
#define vips_concurrency_set (*tomo_vips_pointer_vips_concurrency_set)
#define vips_copy (*tomo_vips_pointer_vips_copy)
#define vips_error (*tomo_vips_pointer_vips_error)
#define vips_error_buffer_copy (*tomo_vips_pointer_vips_error_buffer_copy)
#define vips_error_clear (*tomo_vips_pointer_vips_error_clear)
#define vips_extract_area (*tomo_vips_pointer_vips_extract_area)
#define vips_flatten (*tomo_vips_pointer_vips_flatten)
#define vips_foreign_find_load (*tomo_vips_pointer_vips_foreign_find_load)
#define vips_getpoint (*tomo_vips_pointer_vips_getpoint)
#define vips_image_copy_memory (*tomo_vips_pointer_vips_image_copy_memory)
#define vips_image_get_bands (*tomo_vips_pointer_vips_image_get_bands)
#define vips_image_get_fields (*tomo_vips_pointer_vips_image_get_fields)
#define vips_image_get_format (*tomo_vips_pointer_vips_image_get_format)
#define vips_image_get_height (*tomo_vips_pointer_vips_image_get_height)
#define vips_image_get_orientation_swap (*tomo_vips_pointer_vips_image_get_orientation_swap)
#define vips_image_get_string (*tomo_vips_pointer_vips_image_get_string)
#define vips_image_get_typeof (*tomo_vips_pointer_vips_image_get_typeof)
#define vips_image_get_width (*tomo_vips_pointer_vips_image_get_width)
#define vips_image_guess_interpretation (*tomo_vips_pointer_vips_image_guess_interpretation)
#define vips_image_hasalpha (*tomo_vips_pointer_vips_image_hasalpha)
#define vips_image_new_from_file (*tomo_vips_pointer_vips_image_new_from_file)
#define vips_image_new_from_memory (*tomo_vips_pointer_vips_image_new_from_memory)
#define vips_image_remove (*tomo_vips_pointer_vips_image_remove)
#define vips_image_write_to_memory (*tomo_vips_pointer_vips_image_write_to_memory)
#define vips_init (*tomo_vips_pointer_vips_init)
#define vips_jpegsave_buffer (*tomo_vips_pointer_vips_jpegsave_buffer)
#define vips_pngsave_buffer (*tomo_vips_pointer_vips_pngsave_buffer)
#define vips_text (*tomo_vips_pointer_vips_text)
#define vips_thread_shutdown (*tomo_vips_pointer_vips_thread_shutdown)
#define vips_thumbnail (*tomo_vips_pointer_vips_thumbnail)
#define vips_thumbnail_image (*tomo_vips_pointer_vips_thumbnail_image)
#define vips_version (*tomo_vips_pointer_vips_version)
#define vips_version_string (*tomo_vips_pointer_vips_version_string)
#define vips_webpsave_buffer (*tomo_vips_pointer_vips_webpsave_buffer)

#endif

#endif
