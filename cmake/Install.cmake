# What `cmake --install` puts under the prefix, and the .deb that scripts/package builds
# from it (CPack). The programs find their data through app/paths/data_dir: share/tilescope
# beside the bin folder they run from. Kernel sources and shaders are compiled into them.
include(GNUInstallDirs)

if(TARGET tilescope)
  install(TARGETS tilescope RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES packaging/tilescope.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES packaging/tilescope.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()
install(TARGETS tilescope-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY assets/lessons assets/measurements assets/traces
        DESTINATION ${CMAKE_INSTALL_DATADIR}/tilescope)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The manual the README links to, beside it.
install(DIRECTORY docs DESTINATION ${CMAKE_INSTALL_DOCDIR})

# ---- The .deb: its dependencies are this distribution's own packages -----------------------
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tilescope)
set(CPACK_PACKAGE_VENDOR "TileScope")
set(CPACK_PACKAGE_CONTACT "TileScope developers <tilescope@invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
    "TileScope draws how a CUDA matrix multiplication divides C into thread blocks, which tiles of A and B each "
    "block loads into shared memory in each phase, and which thread computes which cell; it runs naive and tiled "
    "kernels on the GPU and plots their measured latency. Without an NVIDIA GPU it works on its model.")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# Man pages from --help, where help2man is installed: share/man/man1/tilescope{,-cli}.1.gz.
include(${CMAKE_CURRENT_LIST_DIR}/ManPages.cmake)
# dpkg-shlibdeps names the libraries the programs link (GLFW, libGL, libstdc++, ...) by the
# packages of the system the .deb is built on; the font is read at run time.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fonts-dejavu-core")
# Exported animations as MP4 and WebM pipe their frames to ffmpeg; without it those two are refused.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "ffmpeg")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "xvfb")
# One .deb per release: tilescope_0.1.0-1~trixie_amd64.deb.
set(release_suffix "")
if(EXISTS /etc/os-release)
  file(STRINGS /etc/os-release codename REGEX "^VERSION_CODENAME=")
  string(REGEX REPLACE "^VERSION_CODENAME=\"?([a-z]*)\"?$" "\\1" codename "${codename}")
  if(codename)
    set(release_suffix "~${codename}")
  endif()
endif()
set(CPACK_DEBIAN_PACKAGE_RELEASE "1${release_suffix}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
include(CPack)
